//! Planning an install from indexes: the release of each pack asked for that fits the scripting
//! API and what is installed, its dependencies first, or why none can be chosen.

use super::{Index, IndexedPack, Release};
use crate::manifest::{API_VERSION, id_problem};
use crate::resolve::Catalog;
use semver::{Version, VersionReq};

/// A release chosen to install, from the index at `source`.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The pack's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The release.
    pub release: Release,
    /// The index it is listed in (its addresses are relative to it).
    pub source: String,
    /// The version installed now, which it replaces.
    pub replaces: Option<Version>,
}

/// Why a plan cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// No index lists the pack.
    #[error(
        "no pack index lists `{id}`{by}: `scryptic pack search` shows what they have, `scryptic pack source list` where they are"
    )]
    Unknown {
        /// The pack.
        id: String,
        /// ` (needed by X)`, or nothing.
        by: String,
    },
    /// The indexes list the pack, but no release fits.
    #[error(
        "no release of `{id}` fits {req}{by} and this build's scripting API {API_VERSION}: the indexes have {found}"
    )]
    NoFit {
        /// The pack.
        id: String,
        /// The versions wanted.
        req: VersionReq,
        /// ` (needed by X)`, or nothing.
        by: String,
        /// The versions listed, each with the API it needs.
        found: String,
    },
    /// Two packs need versions of a third that no release satisfies together.
    #[error("`{id}` {chosen} was chosen, but {by} needs {req}: no one release fits both")]
    Clash {
        /// The pack needed.
        id: String,
        /// The release chosen.
        chosen: Version,
        /// What else needs it.
        by: String,
        /// What that needs.
        req: VersionReq,
    },
}

/// The releases to install so that each of `wanted` (id, versions accepted) is installed with
/// every dependency, from `indexes` (each with its location), given what `catalog` holds
/// (built-in packs count as there; an installed pack whose version fits is kept). Dependencies
/// come first. With `newer`, an installed pack that fits is replaced by the newest release
/// that fits too (an update).
pub fn plan(
    indexes: &[(String, Index)],
    wanted: &[(String, VersionReq)],
    catalog: &Catalog,
    newer: bool,
) -> Result<Vec<Planned>, PlanError> {
    let mut planned: Vec<Planned> = Vec::new();
    for (id, req) in wanted {
        plan_one(indexes, id, req, "", catalog, newer, &mut planned)?;
    }
    Ok(planned)
}

fn plan_one(
    indexes: &[(String, Index)],
    id: &str,
    req: &VersionReq,
    by: &str,
    catalog: &Catalog,
    newer: bool,
    planned: &mut Vec<Planned>,
) -> Result<(), PlanError> {
    if let Some(chosen) = planned.iter().find(|p| p.id == id) {
        return if req.matches(&chosen.release.version) {
            Ok(())
        } else {
            Err(PlanError::Clash {
                id: id.to_string(),
                chosen: chosen.release.version.clone(),
                by: if by.is_empty() {
                    "you".into()
                } else {
                    by.to_string()
                },
                req: req.clone(),
            })
        };
    }
    let installed = catalog.get(id).map(|p| p.manifest.version.clone());
    let fits_installed = installed.as_ref().is_some_and(|v| req.matches(v));
    if fits_installed && (!newer || crate::is_built_in(id)) {
        return Ok(());
    }
    let needed_by = if by.is_empty() {
        String::new()
    } else {
        format!(" (needed by {by})")
    };
    let listed: Vec<(&String, &IndexedPack)> = indexes
        .iter()
        .filter_map(|(source, index)| index.pack(id).map(|p| (source, p)))
        .collect();
    if listed.is_empty() {
        if fits_installed {
            return Ok(());
        }
        return Err(PlanError::Unknown {
            id: id.to_string(),
            by: needed_by,
        });
    }
    // The packs installed that need this one hold it to their requirements: an update never
    // breaks them.
    let held: Vec<VersionReq> = catalog
        .packs()
        .iter()
        .filter(|p| p.id() != id)
        .filter_map(|p| p.manifest.depends.get(id).cloned())
        .collect();
    let best = listed
        .iter()
        .flat_map(|(source, pack)| {
            pack.releases
                .iter()
                .filter(|r| r.fits() && req.matches(&r.version))
                .filter(|r| held.iter().all(|h| h.matches(&r.version)))
                .map(move |r| (*source, *pack, r))
        })
        .max_by(|a, b| a.2.version.cmp(&b.2.version));
    let Some((source, pack, release)) = best else {
        if fits_installed {
            return Ok(());
        }
        let found = listed
            .iter()
            .flat_map(|(_, p)| p.releases.iter())
            .map(|r| format!("{} (API {})", r.version, r.scryptic))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(PlanError::NoFit {
            id: id.to_string(),
            req: req.clone(),
            by: needed_by,
            found,
        });
    };
    if installed.as_ref().is_some_and(|v| *v >= release.version) {
        // Nothing newer that fits: what is installed stays.
        return Ok(());
    }
    for (dep, dep_req) in &release.depends {
        plan_one(indexes, dep, dep_req, id, catalog, false, planned)?;
    }
    planned.push(Planned {
        id: id.to_string(),
        title: pack.title.clone(),
        release: release.clone(),
        source: source.clone(),
        replaces: installed,
    });
    Ok(())
}

/// `ID` or `ID@REQ` (`word-wars@^1.2`, `word-wars@1.2.0`), as the player types it.
pub fn parse_wanted(text: &str) -> Result<(String, VersionReq), String> {
    let (id, req) = match text.split_once('@') {
        Some((id, req)) => {
            let req = VersionReq::parse(req.trim()).map_err(|e| {
                format!(
                    "`{text}`: `{req}` is not a version requirement ({e}); write ID@1.2 or ID@^1.2"
                )
            })?;
            (id.trim(), req)
        }
        None => (text.trim(), VersionReq::STAR),
    };
    if let Some(problem) = id_problem(id) {
        return Err(format!("`{id}`: {problem}"));
    }
    Ok((id.to_string(), req))
}
