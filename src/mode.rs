//! A run's mode: quick (capped sizes, minutes) or full (the papers' sizes). One type for every
//! layer, built once from the command line (`--quick`), kept in the provenance and in
//! `device.json` (as `"quick"` / `"full"`); it imports nothing of the crate, so that every
//! folder may name it.

/// Quick (capped sizes, `figures/quick/`) or full (`figures/<device>/`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Quick,
    #[default]
    Full,
}

impl Mode {
    /// Both modes, full first (the order the experiment files list them in).
    pub const ALL: [Mode; 2] = [Mode::Full, Mode::Quick];

    /// The mode the command line's `--quick` flag asks for.
    pub fn from_quick_flag(quick: bool) -> Mode {
        if quick { Mode::Quick } else { Mode::Full }
    }

    /// Its name in files and messages, as serde writes it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick",
            Mode::Full => "full",
        }
    }

    pub fn is_quick(self) -> bool {
        self == Mode::Quick
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Mode;

    #[test]
    fn serde_names_are_the_files_values() {
        for m in Mode::ALL {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.name()));
            assert_eq!(serde_json::from_str::<Mode>(&json).unwrap(), m);
        }
        assert!(serde_json::from_str::<Mode>("\"fast\"").is_err());
    }
}
