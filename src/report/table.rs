//! A result table: typed columns that say where each number comes from (our measurement, the
//! paper, the audit of the paper, or beyond the paper), rows with a verification status, and
//! its Markdown, CSV and JSON forms.

pub mod bound;
pub mod row;
pub mod sheet;
pub mod tuning;
pub mod value;
pub mod versus;

pub use bound::{Attained, BOUND, LIMITER, OF_BOUND, with_bound_columns};
pub use row::{Row, RowBuilder, Status};
pub use sheet::Table;
pub use value::{Column, FEW_RUNS_MARK, Fmt, Source, Value};
