//! The paper's four findings, re-tested on this run's rows, each with its verdict and what the
//! verdict rests on; every number here comes from this run or from `experiments/lu.toml`.

mod arithmetic;
mod bandwidth;
mod results;
mod run;
mod timing;
mod vector;

pub(super) use results::Results;
pub(super) use run::run;
