//! A `#define` of a shader variant ([`Define`]): block size, channel mask, a switch.

/// A `#define NAME VALUE` for a shader variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Define(pub String, pub String);

impl Define {
    pub fn new(name: impl Into<String>, value: impl ToString) -> Self {
        Define(name.into(), value.to_string())
    }
    /// A define with no value (`#define NAME`), for `#ifdef` switches.
    pub fn flag(name: impl Into<String>) -> Self {
        Define(name.into(), String::new())
    }
}
