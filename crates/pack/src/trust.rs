//! Who a pack release comes from: authors sign the archive they publish (ed25519), an index
//! carries each release's signature and public key, and a player's first install of a pack pins
//! its author's key, so that a later release signed by another key is refused unless the change
//! is accepted on purpose. The sandbox stays the protection for what a pack runs; a signature
//! says only that the release comes from whoever held the key before.
//!
//! Files, all small text: a secret key (`scryptic secret key 1` then 64 hex digits, in the
//! data folder's `keys/`, never in a pack), a signature beside the archive (`ID-VERSION.zip.sig`:
//! `scryptic signature 1`, `key HEX`, `signature HEX`), and the pins (`trust/pins`: `ID KEY` a
//! line).

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use std::path::{Path, PathBuf};

/// The first line of a secret key file.
const SECRET_HEADER: &str = "scryptic secret key 1";
/// The first line of a signature file.
const SIGNATURE_HEADER: &str = "scryptic signature 1";
/// The most bytes of a key or signature file (they are about 200).
pub const MAX_TRUST_FILE_BYTES: u64 = 4096;
/// A signature file's suffix, after the archive's name.
pub const SIGNATURE_SUFFIX: &str = ".sig";

/// What is wrong with a key, a signature or a pin.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// A file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A key or signature file is not one.
    #[error("{path}: {why}")]
    Malformed {
        /// The file (or what the text came from).
        path: PathBuf,
        /// What is wrong, and how to fix it.
        why: String,
    },
    /// A signature does not match the archive and key.
    #[error(
        "the signature of {what} does not match it with key {key}: the archive was changed after signing, or signed with another key"
    )]
    BadSignature {
        /// What was signed (an archive's name).
        what: String,
        /// The key named.
        key: String,
    },
    /// A release signed by another key than the one pinned on first install.
    #[error(
        "pack {id} was first installed signed by key {pinned}, and this release is signed by key {offered}: \
         it may come from someone else. If its author says they changed keys, accept the new one with \
         `scryptic pack trust {id} {offered}` and install again"
    )]
    KeyChanged {
        /// The pack.
        id: String,
        /// The key pinned.
        pinned: String,
        /// The key of the release.
        offered: String,
    },
}

/// An author's signing key.
pub struct SecretKey(SigningKey);

impl SecretKey {
    /// The key of these 32 random bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> SecretKey {
        SecretKey(SigningKey::from_bytes(&bytes))
    }

    /// The public key, as 64 hex digits (what an index and a pin show).
    pub fn public_hex(&self) -> String {
        crate::record::hex(self.0.verifying_key().as_bytes())
    }

    /// Signs `bytes` (an archive's whole contents).
    pub fn sign(&self, bytes: &[u8]) -> SignatureFile {
        SignatureFile {
            key: self.public_hex(),
            signature: crate::record::hex(&self.0.sign(bytes).to_bytes()),
        }
    }

    /// Writes the key to `path` (readable by its owner alone), refusing to replace one.
    pub fn save_new(&self, path: &Path) -> Result<(), TrustError> {
        let io = |source| TrustError::Io {
            path: path.to_path_buf(),
            source,
        };
        if path.exists() {
            return Err(TrustError::Malformed {
                path: path.to_path_buf(),
                why: "a key is there already: it is kept (releases signed with it are trusted by \
                      its public key; a new key would look like someone else)"
                    .into(),
            });
        }
        if let Some(dir) = path.parent() {
            crate::fsutil::create_private_dir(dir).map_err(io)?;
        }
        let text = format!(
            "{SECRET_HEADER}\n{}\n",
            crate::record::hex(&self.0.to_bytes())
        );
        // The author's alone from the first byte written.
        crate::fsutil::write_private(path, text.as_bytes()).map_err(io)
    }

    /// Reads the key at `path`.
    pub fn load(path: &Path) -> Result<SecretKey, TrustError> {
        let text = read_small(path)?;
        let mut lines = text.lines();
        let malformed = |why: &str| TrustError::Malformed {
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        if lines.next() != Some(SECRET_HEADER) {
            return Err(malformed(
                "is not a scryptic secret key (`scryptic pack keygen` makes one)",
            ));
        }
        let bytes = lines
            .next()
            .and_then(|l| unhex::<32>(l.trim()))
            .ok_or_else(|| malformed("its key is not 64 hexadecimal digits"))?;
        Ok(SecretKey::from_bytes(bytes))
    }
}

/// A release's signature: the signer's public key and the signature of the archive's bytes,
/// both in hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureFile {
    /// The public key, 64 hex digits.
    pub key: String,
    /// The signature, 128 hex digits.
    pub signature: String,
}

impl SignatureFile {
    /// The file's text.
    pub fn to_text(&self) -> String {
        format!(
            "{SIGNATURE_HEADER}\nkey {}\nsignature {}\n",
            self.key, self.signature
        )
    }

    /// Reads a signature file's `text` (named `path` in messages).
    pub fn parse(path: &Path, text: &str) -> Result<SignatureFile, TrustError> {
        let malformed = |why: String| TrustError::Malformed {
            path: path.to_path_buf(),
            why,
        };
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(SIGNATURE_HEADER) {
            return Err(malformed(format!(
                "is not a scryptic signature: its first line is `{SIGNATURE_HEADER}` (`scryptic pack sign ZIP` writes one)"
            )));
        }
        let mut field = |name: &str| {
            let line = lines.next().unwrap_or_default().trim();
            line.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(str::to_string)
                .ok_or_else(|| malformed(format!("a line `{name} HEX` is expected, not `{line}`")))
        };
        let signature = SignatureFile {
            key: field("key")?,
            signature: field("signature")?,
        };
        check_hex(&signature.key, 32, "key").map_err(&malformed)?;
        check_hex(&signature.signature, 64, "signature").map_err(&malformed)?;
        Ok(signature)
    }

    /// Reads the signature file at `path`.
    pub fn load(path: &Path) -> Result<SignatureFile, TrustError> {
        SignatureFile::parse(path, &read_small(path)?)
    }

    /// The signature file of the archive `zip`, if one is beside it (`ZIP.sig`).
    pub fn beside(zip: &Path) -> Option<PathBuf> {
        let mut name = zip.file_name()?.to_os_string();
        name.push(SIGNATURE_SUFFIX);
        let path = zip.with_file_name(name);
        path.is_file().then_some(path)
    }
}

/// Checks that `signature` (hex) signs `bytes` with `key` (hex); `what` names them in the
/// refusal.
pub fn verify(bytes: &[u8], key: &str, signature: &str, what: &str) -> Result<(), TrustError> {
    let bad = || TrustError::BadSignature {
        what: what.to_string(),
        key: key.to_string(),
    };
    let key_bytes = unhex::<32>(key).ok_or_else(bad)?;
    let signature_bytes = unhex::<64>(signature).ok_or_else(bad)?;
    let key = VerifyingKey::from_bytes(&key_bytes).map_err(|_| bad())?;
    key.verify(bytes, &Signature::from_bytes(&signature_bytes))
        .map_err(|_| bad())
}

/// What the pins say of a release about to be installed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pinned {
    /// The release is signed by the key pinned.
    Same,
    /// The pack is installed for the first time signed: its key is to be pinned.
    First,
    /// The release is not signed (installs with a warning; a pin, if any, stays).
    Unsigned,
}

/// The keys pinned on each pack's first signed install: `trust/pins` in the data folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pins {
    /// (pack id, key) pairs.
    pub pins: Vec<(String, String)>,
}

impl Pins {
    /// Where the pins of data folder `data` are.
    pub fn path(data: &Path) -> PathBuf {
        data.join("trust").join("pins")
    }

    /// The pins of data folder `data` (none yet: empty).
    pub fn load(data: &Path) -> Result<Pins, TrustError> {
        let path = Pins::path(data);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Pins::default()),
            Err(source) => return Err(TrustError::Io { path, source }),
        };
        let pins = text
            .lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(id, key)| (id.to_string(), key.trim().to_string()))
            .collect();
        Ok(Pins { pins })
    }

    /// Writes the pins into data folder `data`.
    pub fn save(&self, data: &Path) -> Result<(), TrustError> {
        let path = Pins::path(data);
        let io = |source| TrustError::Io {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let text: String = self
            .pins
            .iter()
            .map(|(id, k)| format!("{id} {k}\n"))
            .collect();
        crate::fsutil::write_atomic(&path, text.as_bytes()).map_err(io)
    }

    /// The key pinned for pack `id`.
    pub fn of(&self, id: &str) -> Option<&str> {
        self.pins
            .iter()
            .find(|(p, _)| p == id)
            .map(|(_, k)| k.as_str())
    }

    /// What installing a release of `id` signed by `key` (none: unsigned) means.
    pub fn judge(&self, id: &str, key: Option<&str>) -> Result<Pinned, TrustError> {
        match (self.of(id), key) {
            (_, None) => Ok(Pinned::Unsigned),
            (None, Some(_)) => Ok(Pinned::First),
            (Some(pinned), Some(offered)) if pinned.eq_ignore_ascii_case(offered) => {
                Ok(Pinned::Same)
            }
            (Some(pinned), Some(offered)) => Err(TrustError::KeyChanged {
                id: id.to_string(),
                pinned: pinned.to_string(),
                offered: offered.to_string(),
            }),
        }
    }

    /// Pins `key` for pack `id` (replacing a pin: an accepted change of keys).
    pub fn pin(&mut self, id: &str, key: &str) {
        self.pins.retain(|(p, _)| p != id);
        self.pins.push((id.to_string(), key.to_ascii_lowercase()));
        self.pins.sort();
    }
}

/// Whether `text` is `bytes` bytes in hex; why not, naming it `what`.
pub fn check_hex(text: &str, bytes: usize, what: &str) -> Result<(), String> {
    if text.len() == bytes * 2 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err(format!(
            "the {what} is {} hexadecimal digits, not `{}`",
            bytes * 2,
            text.chars().take(40).collect::<String>()
        ))
    }
}

/// The `N` bytes `text` writes in hex.
fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(out)
}

/// A small file's text, refused past `MAX_TRUST_FILE_BYTES`.
fn read_small(path: &Path) -> Result<String, TrustError> {
    let io = |source| TrustError::Io {
        path: path.to_path_buf(),
        source,
    };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > MAX_TRUST_FILE_BYTES {
        return Err(TrustError::Malformed {
            path: path.to_path_buf(),
            why: format!(
                "is {size} bytes: a key or signature file is under {MAX_TRUST_FILE_BYTES}"
            ),
        });
    }
    std::fs::read_to_string(path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seed: u8) -> SecretKey {
        SecretKey::from_bytes([seed; 32])
    }

    #[test]
    fn a_signature_verifies_its_bytes_and_key_only() {
        let signed = key(1).sign(b"archive");
        assert!(verify(b"archive", &signed.key, &signed.signature, "a").is_ok());
        assert!(verify(b"archivf", &signed.key, &signed.signature, "a").is_err());
        let other = key(2).public_hex();
        assert!(verify(b"archive", &other, &signed.signature, "a").is_err());
        assert!(verify(b"archive", "zz", &signed.signature, "a").is_err());
    }

    #[test]
    fn signature_files_round_trip_and_refuse_what_is_not_one() {
        let signed = key(3).sign(b"x");
        let path = Path::new("x.zip.sig");
        assert_eq!(
            SignatureFile::parse(path, &signed.to_text()).unwrap(),
            signed
        );
        for text in [
            "",
            "scryptic signature 2\nkey 00\nsignature 00\n",
            "scryptic signature 1\nkey 00\nsignature 00\n",
            "scryptic signature 1\nsignature 00\nkey 00\n",
        ] {
            assert!(SignatureFile::parse(path, text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn the_first_signed_install_pins_and_another_key_is_refused_naming_both() {
        let mut pins = Pins::default();
        let (a, b) = (key(4).public_hex(), key(5).public_hex());
        assert_eq!(pins.judge("p", None).unwrap(), Pinned::Unsigned);
        assert_eq!(pins.judge("p", Some(&a)).unwrap(), Pinned::First);
        pins.pin("p", &a);
        assert_eq!(pins.judge("p", Some(&a)).unwrap(), Pinned::Same);
        let refused = pins.judge("p", Some(&b)).unwrap_err().to_string();
        assert!(refused.contains(&a) && refused.contains(&b), "{refused}");
        assert!(refused.contains("scryptic pack trust p"), "{refused}");
        assert_eq!(pins.judge("p", None).unwrap(), Pinned::Unsigned);
    }

    #[test]
    fn keys_and_pins_are_kept_in_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys/author.key");
        let made = key(6);
        made.save_new(&path).unwrap();
        assert!(made.save_new(&path).is_err(), "a key is never replaced");
        assert_eq!(
            SecretKey::load(&path).unwrap().public_hex(),
            made.public_hex()
        );
        let mut pins = Pins::default();
        pins.pin("p", &made.public_hex());
        pins.save(dir.path()).unwrap();
        assert_eq!(Pins::load(dir.path()).unwrap(), pins);
    }
}
