//! The fixed costs probed for one table ([`crate::bench::fixed::probe`]): at the table's first
//! bounded row, and again after a row near a fixed-cost bound; its rows' bounds use the least
//! of each cost over the probes, and the caption says them.

use crate::bench::Limits;
use crate::bench::fixed::FixedProbe;
use crate::gl::Gl;

/// From this fraction of a bound whose limiter is (or is close to) the fixed cost, the table
/// probes the fixed costs again right after the row. On llvmpipe a draw's cost has modes that
/// last seconds (see [`crate::bench::fixed`]); a row timed in a cheaper mode than the table's
/// first probe met reads above 1 of a bound that is then no bound: `tridiagonal/sweep` `32 CR
/// fragment (copy)` read 1.39 of it in a quick run (issue 23). Probing next to the row meets
/// the mode the row met, while it lasts.
pub const REPROBE_AT: f64 = 0.8;

/// A table's probes: none before its first bounded row.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableProbes(Option<Probes>);

/// The first probe and the least over every probe.
#[derive(Clone, Copy, Debug)]
struct Probes {
    first: FixedProbe,
    least: FixedProbe,
    /// Probes made after a row near its fixed-cost bound ([`REPROBE_AT`]).
    again: usize,
    /// Where the caption line that says them is.
    caption: usize,
}

impl TableProbes {
    /// The limits the rows are bounded by: `bench`'s, with each fixed cost the least of the
    /// bench's and the ones probed in this process for this table (see
    /// [`crate::bench::fixed`]'s module docs: a fixed cost measured in another process, or
    /// minutes earlier, can lie above a row's own passes; a bound must not, so it takes the
    /// least cost this device was seen to reach). The first call probes, and adds the line
    /// that says the probes to `caption`.
    pub fn limits(&mut self, gl: &Gl, bench: &Limits, caption: &mut Vec<String>) -> Limits {
        let p = match self.0 {
            Some(p) => p,
            None => {
                let first = crate::bench::fixed::probe(gl).unwrap_or_default();
                caption.push(String::new());
                let p = Probes {
                    first,
                    least: first,
                    again: 0,
                    caption: caption.len() - 1,
                };
                self.0 = Some(p);
                self.say(bench, caption);
                p
            }
        };
        p.least.least(FixedProbe::of(bench)).applied_to(bench)
    }

    /// Probes the fixed costs again (after a row near its fixed-cost bound) and keeps the
    /// least of each.
    pub fn again(&mut self, gl: &Gl, bench: &Limits, caption: &mut [String]) {
        let p = crate::bench::fixed::probe(gl).unwrap_or_default();
        if let Some(probes) = self.0.as_mut() {
            probes.least = probes.least.least(p);
            probes.again += 1;
        }
        self.say(bench, caption);
    }

    /// The first probe: the costs the process met when the table started.
    pub fn first(&self) -> Option<FixedProbe> {
        self.0.map(|p| p.first)
    }

    /// Whether a row near its fixed-cost bound made the table probe again (its rows are then
    /// read again against the least costs at its end).
    pub fn probed_again(&self) -> bool {
        self.0.is_some_and(|p| p.again > 0)
    }

    /// The caption line of the fixed-cost probes (rewritten after each probe).
    fn say(&self, bench: &Limits, caption: &mut [String]) {
        let Some(p) = self.0 else {
            return;
        };
        let us = |v: Option<f64>| v.map_or("—".to_string(), |ms| format!("{:.1} µs", ms * 1e3));
        let again = match p.again {
            0 => String::new(),
            n => format!(
                "; probed again after {n} row{} at over {REPROBE_AT} of a fixed-cost bound, the \
                 least of all probes: {}, {}",
                if n == 1 { "" } else { "s" },
                us(p.least.draw_ms),
                us(p.least.dispatch_ms)
            ),
        };
        caption[p.caption] = format!(
            "Fixed costs probed in this process, on all its CPUs, at the table's first \
             bounded row: an empty draw {}, an empty dispatch {}{again} (the bench's \
             `device.json`: {}, {}, the least of its passes, one of them made with the process \
             on one CPU); every row's bound uses the least. Where the first probe's costs give \
             a larger bound (on llvmpipe: what handing each pass to the driver's threads on \
             other CPUs adds, which moves between modes), `of bound`'s interval reaches up to \
             the fraction of that one.",
            us(p.first.draw_ms),
            us(p.first.dispatch_ms),
            us(bench.draw_ms),
            us(bench.dispatch_ms)
        );
    }
}
