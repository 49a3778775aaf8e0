//! Table tests of manifests, paths and resolution.
