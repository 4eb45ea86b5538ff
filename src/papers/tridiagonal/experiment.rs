//! The paper's experiments: Table 1 and Fig. 11.
use crate::runner::{RunError, Session};

pub fn run(_s: &Session) -> Result<(), RunError> {
    Ok(())
}
