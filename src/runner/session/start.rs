//! Starting a table of a [`Session`]: its writer, with the rows a `--resume` may reuse and
//! its progress bar.

use std::collections::{HashMap, HashSet};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::handle::Session;
use super::writer::TableWriter;
use crate::report::table::{Column, Table};
use crate::runner::error::RunError;

impl Session {
    /// Starts a table; `config` is what the rows depend on (sizes, variants, repetitions…),
    /// hashed into each row's fingerprint for `--resume`.
    pub fn table(
        &self,
        id: &str,
        title: &str,
        columns: Vec<Column>,
        config: &impl Serialize,
    ) -> Result<TableWriter, RunError> {
        let config_json = serde_json::to_string(config).unwrap_or_default();
        let previous = if self.shared.resume {
            Table::read(&self.shared.dir, id)
                .filter(|t| t.columns == columns)
                .map(|t| t.rows.into_iter().map(|r| (r.key.clone(), r)).collect())
                .unwrap_or_default()
        } else {
            HashMap::new()
        };
        let bar = self.shared.progress.add(ProgressBar::new(0));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>24} [{bar:30}] {pos}/{len} rows, {elapsed} elapsed, ~{eta} left: {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(format!("{}/{}", self.shared.paper, id));
        // Profiles made before this table (the bench's, another table's unwritten rows)
        // belong to none of its rows.
        crate::gl::profile::take_runs();
        Ok(TableWriter {
            load_start: self
                .shared
                .load_threshold
                .get()
                .and_then(|_| crate::report::load::Snapshot::now()),
            shared: self.shared.clone(),
            table: Table::new(id, title, columns),
            config_json,
            previous,
            reused: HashSet::new(),
            bar,
            gl: self.gl.clone(),
            probe: Default::default(),
            time: Default::default(),
        })
    }
}
