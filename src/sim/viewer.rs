//! Live viewer (placeholder while it is written).
use super::Kind;

pub fn run(_kind: Kind, _n: u32, _solver: &str) -> anyhow::Result<()> {
    anyhow::bail!("--window: not yet")
}
