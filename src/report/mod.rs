//! Tables (Markdown, CSV, JSON), plots (PNG), provenance (with the machine's load), the
//! `REPORT.md` article with the papers' pages, and the comparison of two runs.

pub mod article;
pub mod audit;
pub mod claim;
pub mod compare;
pub mod files;
pub mod finding;
pub mod index;
pub mod load;
pub mod plot;
pub mod profile;
pub mod provenance;
pub mod record;
pub mod stability;
pub mod table;

pub use audit::Audit;
pub use finding::{Finding, Point, Verdict};
pub use plot::{
    BarChart, Dot, DotChart, DotSeries, HeatMap, LineChart, RatioChart, RatioRow, Series,
};
pub use provenance::Provenance;
pub use table::{
    Attained, BOUND, Column, Fmt, LIMITER, OF_BOUND, Row, RowBuilder, Source, Status, Table, Value,
    with_bound_columns,
};
