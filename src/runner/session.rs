//! What a paper's experiments see of the runner: the context, the mode, the parsed
//! experiment file, table writers that save every row as it finishes, notes, audits, plots.

pub mod handle;
mod probes;
mod start;
pub mod writer;

pub use handle::Session;
pub use writer::TableWriter;
