//! The tables of a paper's record that ran, read back from their JSON files.

use std::path::Path;

use crate::report::record::PaperRecord;
use crate::report::table::Table;

/// The tables of a paper's record that ran, read from their JSON files.
pub(super) fn tables(dir: &Path, key: &str, r: &PaperRecord) -> Vec<Table> {
    r.tables
        .iter()
        .filter(|t| t.skipped.is_none())
        .filter_map(|t| Table::read(&dir.join(key), &t.id))
        .collect()
}
