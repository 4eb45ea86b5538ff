//! What the report knows of a paper beyond its run: its [`Original`] (citation, setup, what
//! is not reproduced) and how it is listed ([`PaperMeta`]).

/// What the report says of a paper beyond its run: where it was published, what it ran on,
/// how that maps here, and what of it this project does not reproduce.
#[derive(Debug)]
pub struct Original {
    /// The full citation.
    pub citation: &'static str,
    /// The paper's hardware and API ("GeForce 6800, Pentium IV 3.0 GHz; OpenGL + Cg").
    pub setup: &'static str,
    /// How this project runs it ("GLSL fragment shaders and FBOs; GL 4.3 compute beside").
    pub here: &'static str,
    /// Parts of the paper not reproduced, each with why: (what, why).
    pub omitted: &'static [(&'static str, &'static str)],
    /// The paper's claims inventory (`papers/<paper>/claims.rs`): the report's summary
    /// counts these, with the run's findings as their cases.
    pub claims: &'static [crate::report::claim::Claim],
}

/// A paper as the report lists it.
#[derive(Clone, Copy, Debug)]
pub struct PaperMeta {
    pub key: &'static str,
    pub title: &'static str,
    pub original: &'static Original,
}
