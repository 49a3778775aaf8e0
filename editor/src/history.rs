//! Undo and redo without a depth limit. A step is one user action: a whole brush stroke, a
//! fill, a paste, a city placed; it records only what it changed.

use scryptic::{Grid, Map, Pos, Terrain};

/// Everything of a map but its terrain: what object edits (cities, tokens, cell values,
/// rules, scripts, title) change. Small next to the terrain, so such steps keep it whole.
#[derive(Clone, Debug, PartialEq)]
pub struct Objects {
    map: Map,
}

impl Objects {
    /// The map's objects, without its terrain.
    pub fn of(map: &Map) -> Objects {
        Objects {
            map: Map {
                name: map.name.clone(),
                author: map.author.clone(),
                description: map.description.clone(),
                legend: map.legend.clone(),
                terrain: Grid::new(0, 0, Terrain::Plains),
                forest_density: map.forest_density.clone(),
                ice_thickness: map.ice_thickness.clone(),
                cities: map.cities.clone(),
                tokens: map.tokens.clone(),
                rules: map.rules.clone(),
                scripts: map.scripts.clone(),
                tileset: map.tileset.clone(),
                scenario: map.scenario.clone(),
            },
        }
    }

    /// Puts these objects on `map`, keeping its terrain.
    pub fn restore(&self, map: &mut Map) {
        let terrain = std::mem::replace(&mut map.terrain, Grid::new(0, 0, Terrain::Plains));
        *map = Map {
            terrain,
            ..self.map.clone()
        };
    }
}

/// One step: the cells it changed (index, before, after) and the objects before and after.
#[derive(Clone, Debug, Default)]
pub struct Step {
    /// What the step did, for the Edit menu ("Undo fill").
    pub label: String,
    terrain: Vec<(u32, Terrain, Terrain)>,
    objects: Option<Box<(Objects, Objects)>>,
    /// The whole terrain before and after, for steps that change the map's size.
    resized: Option<Box<(Grid<Terrain>, Grid<Terrain>)>>,
}

impl Step {
    /// A step that changed terrain cells: `(index, before, after)`.
    pub fn terrain(label: impl Into<String>, cells: Vec<(u32, Terrain, Terrain)>) -> Step {
        Step {
            label: label.into(),
            terrain: cells,
            objects: None,
            resized: None,
        }
    }

    /// A step that changed objects.
    pub fn objects(label: impl Into<String>, before: Objects, after: Objects) -> Step {
        Step {
            label: label.into(),
            terrain: Vec::new(),
            objects: Some(Box::new((before, after))),
            resized: None,
        }
    }

    /// Adds an object change to this step (a paste moves terrain and cities together).
    pub fn with_objects(mut self, before: Objects, after: Objects) -> Step {
        self.objects = Some(Box::new((before, after)));
        self
    }

    /// A step that changed the map's size: the whole terrain before and after.
    pub fn resized(label: impl Into<String>, before: Grid<Terrain>, after: Grid<Terrain>) -> Step {
        Step {
            label: label.into(),
            terrain: Vec::new(),
            objects: None,
            resized: Some(Box::new((before, after))),
        }
    }

    /// Whether it changed nothing (not worth a place in the history).
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
            && self.objects.as_ref().is_none_or(|o| o.0 == o.1)
            && self.resized.as_ref().is_none_or(|r| r.0 == r.1)
    }

    /// How many cells it changed.
    pub fn cells_changed(&self) -> usize {
        self.terrain.len()
    }

    fn apply(&self, map: &mut Map, forward: bool) {
        if let Some(grids) = &self.resized {
            map.terrain = if forward {
                grids.1.clone()
            } else {
                grids.0.clone()
            };
        }
        let cells = map.terrain.width() as usize * map.terrain.height() as usize;
        for &(i, before, after) in &self.terrain {
            if (i as usize) < cells {
                let pos = Pos::new(i % map.terrain.width(), i / map.terrain.width());
                map.terrain.set(pos, if forward { after } else { before });
            }
        }
        if let Some(objects) = &self.objects {
            let (before, after) = &**objects;
            if forward { after } else { before }.restore(map);
        }
    }
}

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub struct History {
    done: Vec<Step>,
    undone: Vec<Step>,
}

impl History {
    /// Records a step already applied to the map; it clears what could be redone.
    pub fn push(&mut self, step: Step) {
        if !step.is_empty() {
            self.done.push(step);
            self.undone.clear();
        }
    }

    /// Undoes the last step on `map`; its label, or `None` when there is nothing to undo.
    pub fn undo(&mut self, map: &mut Map) -> Option<String> {
        let step = self.done.pop()?;
        step.apply(map, false);
        let label = step.label.clone();
        self.undone.push(step);
        Some(label)
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self, map: &mut Map) -> Option<String> {
        let step = self.undone.pop()?;
        step.apply(map, true);
        let label = step.label.clone();
        self.done.push(step);
        Some(label)
    }

    /// The label of the step Undo would undo.
    pub fn next_undo(&self) -> Option<&str> {
        self.done.last().map(|s| s.label.as_str())
    }

    /// The label of the step Redo would redo.
    pub fn next_redo(&self) -> Option<&str> {
        self.undone.last().map(|s| s.label.as_str())
    }

    /// How many steps can be undone.
    pub fn depth(&self) -> usize {
        self.done.len()
    }
}
