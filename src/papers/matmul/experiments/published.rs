//! The paper's own Table 1 as the experiment file holds it: one [`Published`] row per size,
//! each number as printed ([`Printed`]).

use serde::{Deserialize, Serialize};

/// One row of the paper's Table 1, each number as printed ([`Printed`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    pub n: u32,
    pub cpu_ms: Printed,
    pub cpu_gflops: Printed,
    pub gpu_ms: Printed,
    pub gpu_gflops: Printed,
    pub speedup: Printed,
}

/// A number as the paper prints it: its value and how many decimals it shows, so that an
/// audit knows the printed precision (0.40 stands for [0.395, 0.405]). In the TOML a string
/// keeps trailing zeros (`"0.40"`); a plain number counts the decimals it is written with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "PrintedText", into = "String")]
pub struct Printed {
    pub value: f64,
    pub decimals: u32,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum PrintedText {
    Text(String),
    Int(i64),
    Float(f64),
}

impl Printed {
    /// Parses "86,792", "0.40", "1831".
    pub fn parse(text: &str) -> Result<Printed, String> {
        let t = text.trim().replace(',', "");
        let value: f64 = t
            .parse()
            .map_err(|_| {
                format!("`{text}` is not a number as printed: expected digits as the paper prints them (\"86,792\", \"0.40\")")
            })?;
        if !value.is_finite() {
            return Err(format!("`{text}` is not a finite number"));
        }
        let decimals = t.split_once('.').map_or(0, |(_, d)| d.len() as u32);
        Ok(Printed { value, decimals })
    }
    /// Half a unit of the last printed digit: the rounding the printed value may carry.
    pub fn half_unit(&self) -> f64 {
        0.5 * 10f64.powi(-(self.decimals as i32))
    }
}

impl TryFrom<PrintedText> for Printed {
    type Error = String;
    fn try_from(t: PrintedText) -> Result<Printed, String> {
        match t {
            PrintedText::Text(s) => Printed::parse(&s),
            PrintedText::Int(i) => Printed::parse(&i.to_string()),
            PrintedText::Float(f) => Printed::parse(&f.to_string()),
        }
    }
}

impl From<Printed> for String {
    fn from(p: Printed) -> String {
        format!("{:.*}", p.decimals as usize, p.value)
    }
}
