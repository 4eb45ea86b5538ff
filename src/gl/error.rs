//! The toolkit's error type.

/// Everything that can go wrong in the GL toolkit.
#[derive(Debug, thiserror::Error)]
pub enum GlError {
    /// No device gave a usable context (GL 3.3 core at least); `tried` says what each device
    /// answered, `hint` what to do (installing Mesa only when EGL found no device at all).
    #[error("no usable OpenGL 3.3+ core device found.\n{tried}\n{hint}")]
    NoDevice { tried: String, hint: String },
    /// `--device` named a device that does not exist.
    #[error("no EGL device matches `{wanted}`; the devices are:\n{available}")]
    DeviceNotFound { wanted: String, available: String },
    /// An EGL call failed while setting up a context.
    #[error("EGL: {0}")]
    Egl(String),
    /// A window was asked for where no display answers; the text says why and what to do.
    #[error("--window needs a display: {0}")]
    NoDisplay(String),
    /// A shader failed to compile; the log's line numbers are those of the file.
    #[error("{file}: {stage} shader failed to compile:\n{log}")]
    Compile {
        file: String,
        stage: &'static str,
        log: String,
    },
    /// A program failed to link.
    #[error("program [{files}] failed to link:\n{log}")]
    Link { files: String, log: String },
    /// A shader file that is not in `glsl/`.
    #[error(
        "shader `{0}` is not in glsl/ (names are relative to glsl/, e.g. `matmul/blocked.comp`)"
    )]
    MissingShader(String),
    /// `glGetError` reported an error after a toolkit operation.
    #[error("GL error {code:#06x} ({}) after {what}", error_name(*.code))]
    Call { what: String, code: u32 },
    /// A framebuffer is not complete.
    #[error("framebuffer incomplete ({status:#06x}) for {what}")]
    Framebuffer { what: String, status: u32 },
    /// The device lacks something the operation needs.
    #[error("unsupported on this device: {0}")]
    Unsupported(String),
    /// A request the toolkit cannot serve (size, length, format).
    #[error("invalid request: {0}")]
    Invalid(String),
}

/// The symbolic name of a `glGetError` code.
pub fn error_name(code: u32) -> &'static str {
    match code {
        glow::INVALID_ENUM => "GL_INVALID_ENUM",
        glow::INVALID_VALUE => "GL_INVALID_VALUE",
        glow::INVALID_OPERATION => "GL_INVALID_OPERATION",
        glow::INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION",
        glow::OUT_OF_MEMORY => "GL_OUT_OF_MEMORY",
        glow::STACK_UNDERFLOW => "GL_STACK_UNDERFLOW",
        glow::STACK_OVERFLOW => "GL_STACK_OVERFLOW",
        _ => "unknown",
    }
}
