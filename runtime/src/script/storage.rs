//! The `storage` table: what scripts keep between reloads, in saves, and from one campaign map
//! to the next. It holds strings, numbers, booleans and tables of them, stored as JSON.

use super::ScriptHost;
use mlua::{Lua, Value};

/// How deep storage tables may nest.
const MAX_DEPTH: usize = 32;

/// Why storage cannot be kept or restored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// Tables inside tables too deep.
    #[error("storage nests deeper than {most} tables; keep it shallower")]
    TooDeep {
        /// The deepest nesting kept.
        most: usize,
    },
    /// A key that is neither a string nor a whole number.
    #[error("storage keys are strings or whole numbers, not {kind}")]
    BadKey {
        /// The key's Lua type.
        kind: String,
    },
    /// A value storage cannot keep (a function, a userdata...).
    #[error("storage cannot keep a {kind}; keep strings, numbers, booleans and tables")]
    BadValue {
        /// The value's Lua type.
        kind: String,
    },
    /// Storage text (from a save or a campaign) that is not JSON.
    #[error("storage is not valid JSON: {message}")]
    NotJson {
        /// What the JSON reader said.
        message: String,
    },
    /// The Lua state refused (out of memory, for one).
    #[error("the scripts' state refused storage: {message}")]
    Lua {
        /// What Lua said.
        message: String,
    },
}

fn lua_error(e: mlua::Error) -> StorageError {
    StorageError::Lua {
        message: e.to_string(),
    }
}

fn to_json(value: &Value, depth: usize) -> Result<serde_json::Value, StorageError> {
    if depth > MAX_DEPTH {
        return Err(StorageError::TooDeep { most: MAX_DEPTH });
    }
    Ok(match value {
        Value::Nil => serde_json::Value::Null,
        Value::Boolean(b) => serde_json::Value::Bool(*b),
        Value::Integer(i) => serde_json::Value::from(*i),
        Value::Number(n) => serde_json::Number::from_f64(*n)
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        Value::String(s) => serde_json::Value::String(s.to_string_lossy()),
        Value::Table(t) => {
            let mut map = serde_json::Map::new();
            for pair in t.pairs::<Value, Value>() {
                let (k, v) = pair.map_err(lua_error)?;
                let key = match &k {
                    Value::String(s) => s.to_string_lossy(),
                    Value::Integer(i) => format!("#{i}"),
                    other => {
                        return Err(StorageError::BadKey {
                            kind: other.type_name().to_string(),
                        });
                    }
                };
                map.insert(key, to_json(&v, depth + 1)?);
            }
            serde_json::Value::Object(map)
        }
        other => {
            return Err(StorageError::BadValue {
                kind: other.type_name().to_string(),
            });
        }
    })
}

fn from_json(lua: &Lua, value: &serde_json::Value) -> mlua::Result<Value> {
    Ok(match value {
        serde_json::Value::Null => Value::Nil,
        serde_json::Value::Bool(b) => Value::Boolean(*b),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Number(n.as_f64().unwrap_or(0.0)), Value::Integer),
        serde_json::Value::String(s) => Value::String(lua.create_string(s)?),
        serde_json::Value::Array(items) => {
            let t = lua.create_table()?;
            for (i, v) in items.iter().enumerate() {
                t.raw_set(i + 1, from_json(lua, v)?)?;
            }
            Value::Table(t)
        }
        serde_json::Value::Object(map) => {
            let t = lua.create_table()?;
            for (k, v) in map {
                match k.strip_prefix('#').and_then(|n| n.parse::<i64>().ok()) {
                    Some(i) => t.raw_set(i, from_json(lua, v)?)?,
                    None => t.raw_set(k.as_str(), from_json(lua, v)?)?,
                }
            }
            Value::Table(t)
        }
    })
}

impl ScriptHost {
    /// The `storage` table as JSON text.
    pub fn storage_json(&self) -> Result<String, StorageError> {
        let storage: Value = self.envs.shared.get("storage").map_err(lua_error)?;
        let json = to_json(&storage, 0)?;
        serde_json::to_string(&json).map_err(|e| StorageError::NotJson {
            message: e.to_string(),
        })
    }

    /// Replaces the `storage` table with what JSON text holds.
    pub fn set_storage_json(&mut self, text: &str) -> Result<(), StorageError> {
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|e| StorageError::NotJson {
                message: e.to_string(),
            })?;
        let value = from_json(&self.lua, &json).map_err(lua_error)?;
        let table = match value {
            Value::Table(t) => t,
            _ => self.lua.create_table().map_err(lua_error)?,
        };
        self.envs.shared.set("storage", table).map_err(lua_error)
    }
}
