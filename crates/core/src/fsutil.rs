//! Reading and writing the files people make, safely.

use crate::diag::{FileError, LoadError, line_col_of};
use std::io::Write;
use std::path::Path;

/// The largest text file the runtime reads (64 MiB): far above any real map (a 512x512 map
/// is about 300 KiB), low enough that a wrong file cannot exhaust memory.
pub const MAX_TEXT_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a UTF-8 text file, refusing huge files and saying where the first bad byte is.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    read_text_at_most(path, MAX_TEXT_FILE_BYTES)
}

/// Reads a UTF-8 text file of at most `max_bytes` (a script's limit is smaller than a map's).
/// A byte-order mark at the start is dropped, as editors on some systems write one.
pub fn read_text_at_most(path: &Path, max_bytes: u64) -> Result<String, LoadError> {
    let bytes = read_bytes_at_most(path, max_bytes)?;
    text_from_bytes(path, bytes)
}

/// Reads a file of at most `max_bytes`, refusing a larger one before reading it.
pub fn read_bytes_at_most(path: &Path, max_bytes: u64) -> Result<Vec<u8>, LoadError> {
    let io_error = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    // The size of the open file (not of the path, which could change in between).
    let mut file = std::fs::File::open(path).map_err(io_error)?;
    let metadata = file.metadata().map_err(io_error)?;
    let size = metadata.len();
    if size > max_bytes {
        return Err(LoadError::one(FileError::whole(
            path,
            format!("the file is {size} bytes; the most this file may have is {max_bytes}"),
        )));
    }
    // A regular file is read as `std::fs::read` reads it, in one call sized from its metadata
    // (a bounded reader knows no size and reads an 800 KB dictionary in a dozen growing
    // chunks); anything else (a pipe, a device) only up to the bound.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    if metadata.is_file() {
        std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io_error)?;
    } else {
        std::io::Read::read_to_end(&mut std::io::Read::take(file, max_bytes + 1), &mut bytes)
            .map_err(io_error)?;
    }
    if bytes.len() as u64 > max_bytes {
        return Err(LoadError::one(FileError::whole(
            path,
            format!("the file grew past {max_bytes} bytes while it was read"),
        )));
    }
    Ok(bytes)
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Turns bytes into text (without a leading byte-order mark), or says where the first byte
/// that is not UTF-8 stands.
pub fn text_from_bytes(path: &Path, mut bytes: Vec<u8>) -> Result<String, LoadError> {
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|err| {
        let offset = err.utf8_error().valid_up_to();
        let bytes = err.as_bytes();
        let text = String::from_utf8_lossy(&bytes[..offset]);
        let bad = bytes[offset];
        LoadError::one(FileError::at(
            path,
            Some(line_col_of(&text, offset)),
            format!("byte 0x{bad:02x} is not UTF-8 text; save the file as UTF-8"),
        ))
    })
}

/// Writes `bytes` to `path` atomically: to a new file beside it, then renamed over it, so a
/// crash leaves either the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_as(path, bytes, permissions_for(path))
}

/// Writes `bytes` to `path` atomically (as [`write_atomic`]), readable and writable by its
/// owner only (0600 on Unix, whatever the umask and the file's old mode): for secrets such as
/// seat tokens. The file is never readable by others, not even for a moment: the temporary
/// file it is written to is the owner's alone from the start.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_as(path, bytes, unix_mode(0o600))
}

fn write_atomic_as(
    path: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(bytes)?;
    if let Some(permissions) = permissions {
        file.as_file().set_permissions(permissions)?;
    }
    file.as_file().sync_all()?;
    file.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// Makes the folder `dir` (and its parents) for secrets: the folders made here, and `dir`
/// itself whether made here or not, are its owner's alone (0700 on Unix, whatever the umask).
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    if let Some(permissions) = unix_mode(0o700) {
        std::fs::set_permissions(dir, permissions)?;
    }
    Ok(())
}

/// The permission bits of `path` that let others than its owner (its group, everyone) read,
/// write or enter it (Unix; 0 elsewhere, where modes do not say it).
pub fn open_to_others(path: &Path) -> std::io::Result<u32> {
    let meta = std::fs::metadata(path)?;
    Ok(others_bits(&meta))
}

#[cfg(unix)]
fn others_bits(meta: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o077
}

#[cfg(not(unix))]
fn others_bits(_meta: &std::fs::Metadata) -> u32 {
    0
}

/// Permissions of Unix mode `bits` (none elsewhere, where modes do not say who may read).
#[cfg(unix)]
fn unix_mode(bits: u32) -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(bits))
}

#[cfg(not(unix))]
fn unix_mode(_bits: u32) -> Option<std::fs::Permissions> {
    None
}

/// Makes the file `path` its owner's alone (0600 on Unix), creating it empty if it is not
/// there: before a program that creates files with the umask's mode (SQLite) opens it.
pub fn make_private_file(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    if let Some(permissions) = unix_mode(0o600) {
        file.set_permissions(permissions)?;
    }
    Ok(())
}

/// The permissions a replaced file keeps, or ordinary ones (rw-r--r--) for a new file; the
/// temporary file would otherwise make the user's file private.
fn permissions_for(path: &Path) -> Option<std::fs::Permissions> {
    match std::fs::metadata(path) {
        Ok(meta) => Some(meta.permissions()),
        Err(_) => unix_mode(0o644),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_utf8_names_the_place() {
        let err = text_from_bytes(Path::new("m.ron"), b"ab\nc\xffd".to_vec()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.ron:2:2: byte 0xff is not UTF-8 text; save the file as UTF-8"
        );
    }

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"first version, long").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn atomic_write_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"new").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o644);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
        write_atomic(&path, b"again").unwrap();
        assert_eq!(mode(&path), 0o664);
    }

    /// Secrets are the owner's whatever the umask; a folder made for them too, and one that
    /// was open is closed.
    #[cfg(unix)]
    #[test]
    fn private_files_and_folders_are_the_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let secrets = dir.path().join("a/b/secrets");
        create_private_dir(&secrets).unwrap();
        assert_eq!(mode(&secrets), 0o700);
        assert_eq!(mode(&dir.path().join("a")), 0o700);
        let token = secrets.join("t.tokens");
        std::fs::write(&token, b"old").unwrap();
        std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&token, b"seat token").unwrap();
        assert_eq!(mode(&token), 0o600);
        assert_eq!(std::fs::read(&token).unwrap(), b"seat token");
        let open = dir.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(open_to_others(&open).unwrap(), 0o055);
        create_private_dir(&open).unwrap();
        assert_eq!(open_to_others(&open).unwrap(), 0);
        let db = open.join("matches.sqlite");
        make_private_file(&db).unwrap();
        assert_eq!(mode(&db), 0o600);
    }
}
