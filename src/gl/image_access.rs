//! The `access` values of [`Program::bind_image`](super::program::Program::bind_image), so that callers need not name `glow`.

pub const READ_ONLY: u32 = glow::READ_ONLY;
pub const WRITE_ONLY: u32 = glow::WRITE_ONLY;
pub const READ_WRITE: u32 = glow::READ_WRITE;
