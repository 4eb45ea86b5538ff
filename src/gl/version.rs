//! The GL version negotiation shared by the headless contexts ([`super::context`]) and the
//! windows ([`super::window`]): core profiles from 4.6 down to 3.3, the first the driver
//! gives. Its own file so that neither of the two context makers imports the other for it.

use glutin::context::{ContextApi, Version};

use super::error::GlError;

/// The core-profile versions asked for, in order.
pub const CORE_VERSIONS: [(u8, u8); 5] = [(4, 6), (4, 5), (4, 3), (4, 1), (3, 3)];

/// A core context of the first version of [`CORE_VERSIONS`] that `create` gives; the error
/// names every version tried.
pub(crate) fn negotiate<C>(
    mut create: impl FnMut(ContextApi) -> Result<C, glutin::error::Error>,
) -> Result<C, GlError> {
    let mut last = None;
    for (major, minor) in CORE_VERSIONS {
        match create(ContextApi::OpenGl(Some(Version::new(major, minor)))) {
            Ok(c) => return Ok(c),
            Err(e) => last = Some(e),
        }
    }
    let list: Vec<String> = CORE_VERSIONS
        .iter()
        .map(|(a, b)| format!("{a}.{b}"))
        .collect();
    Err(GlError::Egl(format!(
        "no core-profile context of GL {} (the oldest the papers run on is 3.3 core): {}",
        list.join(", "),
        last.map(|e| e.to_string()).unwrap_or_default()
    )))
}
