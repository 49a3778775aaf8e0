//! Which packs a game loads, and in what order: the packs asked for, their dependencies at
//! the highest version that meets every requirement, the optional ones that are there, in
//! topological order with ties broken by id.

use super::Pack;
use semver::{Version, VersionReq};
use std::collections::{BTreeMap, BTreeSet};

/// Why a set of packs cannot be loaded together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// A pack asked for by name is not there.
    #[error("there is no pack `{id}`{hint}; `scryptic pack list` shows the packs found")]
    Unknown {
        /// The id asked for.
        id: String,
        /// ` (did you mean ...?)`, or nothing.
        hint: String,
    },
    /// A dependency is not there at all.
    #[error(
        "`{by}` needs pack `{id}` ({req}), which is not installed: install it with \
         `scryptic pack install`, or remove it from {by}'s depends"
    )]
    Missing {
        /// The pack needed.
        id: String,
        /// The pack that needs it.
        by: String,
        /// The versions it accepts.
        req: VersionReq,
    },
    /// A dependency is there, but no version of it meets every requirement.
    #[error(
        "no version of `{id}` meets what the packs need: {needs}; found {found}: install a \
         version that fits, or change the requirements"
    )]
    NoVersion {
        /// The pack needed.
        id: String,
        /// `wending needs ^1.0, ...`.
        needs: String,
        /// The versions found.
        found: String,
    },
    /// Two packs chosen cannot be loaded together.
    #[error(
        "`{by}` conflicts with `{id}` {version} ({req}): they cannot be loaded together; leave one out"
    )]
    Conflict {
        /// The pack that declares the conflict.
        by: String,
        /// The pack it conflicts with.
        id: String,
        /// The version of it chosen.
        version: Version,
        /// The versions it conflicts with.
        req: VersionReq,
    },
    /// A pack on disk takes an id the binary ships (`core`): it would run in its place.
    #[error(
        "{at} holds a pack named `{id}`, an id built into scryptic: it is not loaded and cannot \
         be installed (give it an id of its own, in its pack.ron and its folder's name)"
    )]
    Reserved {
        /// The id.
        id: String,
        /// Where the pack is.
        at: String,
    },
    /// Packs that depend on one another in a circle.
    #[error("the packs depend on each other in a circle: {}; one of them must drop its dependency", .0.join(" -> "))]
    Cycle(Vec<String>),
}

/// The packs found: built in, installed, or opened from a folder; several versions of one id
/// may be present.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    packs: Vec<Pack>,
}

impl Catalog {
    /// A catalog holding `packs`.
    pub fn new(packs: Vec<Pack>) -> Catalog {
        Catalog { packs }
    }

    /// Adds `pack`; one of the same id and version already there is replaced (a folder opened
    /// by hand wins over an installed copy).
    /// A pack with a built-in id (`core`) is refused unless it is the one built in: a stranger's
    /// `core` of a higher version would otherwise run instead of it.
    pub fn add(&mut self, pack: Pack) -> Result<(), ResolveError> {
        if super::is_built_in(pack.id()) && pack.files.folder().is_some() {
            return Err(ResolveError::Reserved {
                id: pack.id().to_string(),
                at: pack.files.shown("").display().to_string(),
            });
        }
        self.packs.retain(|p| {
            p.manifest.id != pack.manifest.id || p.manifest.version != pack.manifest.version
        });
        self.packs.push(pack);
        Ok(())
    }

    /// Every pack, sorted by id and then newest first.
    pub fn packs(&self) -> Vec<&Pack> {
        let mut all: Vec<&Pack> = self.packs.iter().collect();
        all.sort_by(|a, b| {
            (&a.manifest.id, &b.manifest.version).cmp(&(&b.manifest.id, &a.manifest.version))
        });
        all
    }

    /// The newest version of pack `id`.
    pub fn get(&self, id: &str) -> Option<&Pack> {
        self.versions(id).into_iter().next()
    }

    /// The versions of pack `id`, newest first.
    fn versions(&self, id: &str) -> Vec<&Pack> {
        let mut found: Vec<&Pack> = self.packs.iter().filter(|p| p.manifest.id == id).collect();
        found.sort_by(|a, b| b.manifest.version.cmp(&a.manifest.version));
        found
    }

    /// The packs a game of `wanted` (a mode's pack and the extensions ticked) loads, in load
    /// order: dependencies first, ties broken by id.
    pub fn resolve(&self, wanted: &[&str]) -> Result<Vec<&Pack>, ResolveError> {
        self.resolve_with(wanted, &mut |ready: &[&str]| {
            debug_assert!(!ready.is_empty());
            0
        })
    }

    /// As `resolve`, with `pick` choosing which of the packs ready to load goes next (given
    /// sorted by id): a check passes a random choice to show that nothing hangs on the order
    /// of ties.
    pub fn resolve_with(
        &self,
        wanted: &[&str],
        pick: &mut dyn FnMut(&[&str]) -> usize,
    ) -> Result<Vec<&Pack>, ResolveError> {
        let chosen = self.choose(wanted)?;
        self.check_conflicts(&chosen)?;
        order(&chosen, pick)
    }

    /// The version of each pack to load: rechosen until every requirement of every pack chosen
    /// is met by the choice (a pack's requirements change with its version).
    fn choose(&self, wanted: &[&str]) -> Result<BTreeMap<String, &Pack>, ResolveError> {
        for id in wanted {
            if self.get(id).is_none() {
                let ids: BTreeSet<&str> =
                    self.packs.iter().map(|p| p.manifest.id.as_str()).collect();
                let hint = crate::diag::nearest_name(id, ids)
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                return Err(ResolveError::Unknown {
                    id: crate::diag::shorten(id, 60),
                    hint,
                });
            }
        }
        let mut chosen: BTreeMap<String, &Pack> = BTreeMap::new();
        // Each round can only raise the number of packs or lower a version, so it settles;
        // the bound stops a pathological catalog all the same.
        for _ in 0..=self.packs.len() + 1 {
            let needs = requirements(wanted, &chosen);
            let mut next = BTreeMap::new();
            for (id, reqs) in &needs {
                if let Some(pack) = self.best(id, reqs)? {
                    next.insert(id.clone(), pack);
                }
            }
            if next.keys().eq(chosen.keys())
                && next
                    .iter()
                    .all(|(id, p)| chosen[id].manifest.version == p.manifest.version)
            {
                return Ok(next);
            }
            chosen = next;
        }
        Ok(chosen)
    }

    /// The newest version of `id` meeting every requirement, `None` for an optional pack that
    /// is absent or does not fit.
    fn best(&self, id: &str, reqs: &[Need]) -> Result<Option<&Pack>, ResolveError> {
        let versions = self.versions(id);
        let fits = |p: &Pack| reqs.iter().all(|n| n.req.matches(&p.manifest.version));
        if let Some(pack) = versions.iter().find(|p| fits(p)) {
            return Ok(Some(*pack));
        }
        let required: Vec<&Need> = reqs.iter().filter(|n| !n.optional).collect();
        let Some(first) = required.first() else {
            return Ok(None);
        };
        if versions.is_empty() {
            return Err(ResolveError::Missing {
                id: id.to_string(),
                by: first.by.clone(),
                req: first.req.clone(),
            });
        }
        let needs: Vec<String> = reqs
            .iter()
            .map(|n| format!("{} needs {}", n.by, n.req))
            .collect();
        let found: Vec<String> = versions
            .iter()
            .map(|p| p.manifest.version.to_string())
            .collect();
        Err(ResolveError::NoVersion {
            id: id.to_string(),
            needs: needs.join(", "),
            found: found.join(", "),
        })
    }

    fn check_conflicts(&self, chosen: &BTreeMap<String, &Pack>) -> Result<(), ResolveError> {
        for pack in chosen.values() {
            for (id, req) in &pack.manifest.conflicts {
                if let Some(other) = chosen.get(id)
                    && req.matches(&other.manifest.version)
                {
                    return Err(ResolveError::Conflict {
                        by: pack.manifest.id.clone(),
                        id: id.clone(),
                        version: other.manifest.version.clone(),
                        req: req.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// One pack's requirement on another.
struct Need {
    by: String,
    req: VersionReq,
    optional: bool,
}

/// What the packs asked for and the packs chosen so far require, by pack id.
fn requirements(wanted: &[&str], chosen: &BTreeMap<String, &Pack>) -> BTreeMap<String, Vec<Need>> {
    let mut needs: BTreeMap<String, Vec<Need>> = BTreeMap::new();
    for id in wanted {
        needs.entry((*id).to_string()).or_default().push(Need {
            by: "(the game)".into(),
            req: VersionReq::STAR,
            optional: false,
        });
    }
    for pack in chosen.values() {
        let lists = [
            (&pack.manifest.depends, false),
            (&pack.manifest.optional, true),
        ];
        for (list, optional) in lists {
            for (id, req) in list {
                needs.entry(id.clone()).or_default().push(Need {
                    by: pack.manifest.id.clone(),
                    req: req.clone(),
                    optional,
                });
            }
        }
    }
    needs
}

/// The chosen packs in load order (Kahn's algorithm; `pick` breaks ties among the ready).
fn order<'a>(
    chosen: &BTreeMap<String, &'a Pack>,
    pick: &mut dyn FnMut(&[&str]) -> usize,
) -> Result<Vec<&'a Pack>, ResolveError> {
    let before = |pack: &Pack| -> Vec<String> {
        pack.manifest
            .depends
            .keys()
            .chain(pack.manifest.optional.keys())
            .filter(|id| chosen.contains_key(*id))
            .cloned()
            .collect()
    };
    let mut waiting: BTreeMap<&str, BTreeSet<String>> = chosen
        .iter()
        .map(|(id, p)| (id.as_str(), before(p).into_iter().collect()))
        .collect();
    let mut out = Vec::with_capacity(chosen.len());
    while !waiting.is_empty() {
        let ready: Vec<&str> = waiting
            .iter()
            .filter(|(_, deps)| deps.is_empty())
            .map(|(id, _)| *id)
            .collect();
        if ready.is_empty() {
            return Err(ResolveError::Cycle(cycle(&waiting)));
        }
        let next = ready[pick(&ready).min(ready.len() - 1)].to_string();
        waiting.remove(next.as_str());
        for deps in waiting.values_mut() {
            deps.remove(&next);
        }
        out.push(chosen[&next]);
    }
    Ok(out)
}

/// A circle among packs that all wait: followed from the first until a pack comes round again.
fn cycle(waiting: &BTreeMap<&str, BTreeSet<String>>) -> Vec<String> {
    let Some(start) = waiting.keys().next() else {
        return Vec::new();
    };
    let mut path: Vec<String> = vec![(*start).to_string()];
    loop {
        let last = &path[path.len() - 1];
        let Some(next) = waiting
            .get(last.as_str())
            .and_then(|deps| deps.iter().next())
        else {
            return path;
        };
        if let Some(at) = path.iter().position(|p| p == next) {
            let mut circle = path.split_off(at);
            circle.push(next.clone());
            return circle;
        }
        path.push(next.clone());
    }
}
