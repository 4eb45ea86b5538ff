//! The four storage formats of §II–III, each filled through the same [`MatrixSink`] by the
//! same assembly loop ([`super::assembly::assemble`]).
//!
//! * [`Dense`]: the full N×N array (the paper's "정방행렬", Table 2's first column).
//! * [`Skyline`]: the upper triangle stored column by column from the first non-zero down to
//!   the diagonal (eq. 3): values `s` and the (N+1)-entry pointer array `p`, whose entry
//!   `p[j+1]` is the 1-based position of diagonal j in `s` (equivalently the 0-based start of
//!   column j+1), `p[0] = 0`. Needs the profile before the values: [`SkylineProfile`] is the
//!   symbolic pass.
//! * [`Csr`]: compressed sparse rows with the paper's four arrays A, J, LEN, PTR (Table 1).
//!   Needs the pattern before the values ("CSR can only be used when the matrix is known in
//!   advance", §I): [`CsrPattern`] is the symbolic pass.
//! * [`VarVec`]: the proposed two-dimensional variable-length vector (§III, Fig. 2): per row a
//!   growable vector of column indices and one of values, upper triangle only; an element
//!   entry is accumulated if its column is already in the row, pushed otherwise.

/// Receives the upper-triangular entries (i ≤ j) of the element matrices.
pub trait MatrixSink {
    /// Adds `v` to entry (i, j), i ≤ j.
    fn add(&mut self, i: usize, j: usize, v: f64);
}

/// The proposed format (Fig. 2): `idx[i]` and `val[i]` are row i's column indices and values,
/// in the order the assembly first met them. The assembly loop adds each node's diagonal
/// before its off-diagonal entries, so every row starts with its diagonal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VarVec {
    pub idx: Vec<Vec<u32>>,
    pub val: Vec<Vec<f64>>,
}

impl VarVec {
    pub fn new(n: usize) -> VarVec {
        VarVec {
            idx: vec![Vec::new(); n],
            val: vec![Vec::new(); n],
        }
    }
    pub fn n(&self) -> usize {
        self.idx.len()
    }
    /// Stored values (Table 2's "proposed" column).
    pub fn stored_values(&self) -> usize {
        self.val.iter().map(Vec::len).sum()
    }
    /// Stored values plus stored indices (Table 2's "incl. indices").
    pub fn stored_with_indices(&self) -> usize {
        self.stored_values() + self.idx.iter().map(Vec::len).sum::<usize>()
    }
    /// The longest row (the paper's per-node maximum: 5 in 2D, 14 in 3D).
    pub fn max_row(&self) -> usize {
        self.idx.iter().map(Vec::len).max().unwrap_or(0)
    }
    /// The value at (i, j) of the upper triangle, if stored.
    pub fn get(&self, i: usize, j: usize) -> Option<f64> {
        let k = self.idx[i].iter().position(|&c| c as usize == j)?;
        Some(self.val[i][k])
    }
    /// y = A x with A symmetric and only its upper triangle stored (f64 throughout).
    pub fn mul_sym(&self, x: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; self.n()];
        for (i, (cols, vals)) in self.idx.iter().zip(&self.val).enumerate() {
            for (&j, &v) in cols.iter().zip(vals) {
                let j = j as usize;
                y[i] += v * x[j];
                if j != i {
                    y[j] += v * x[i];
                }
            }
        }
        y
    }
}

impl MatrixSink for VarVec {
    fn add(&mut self, i: usize, j: usize, v: f64) {
        let (cols, vals) = (&mut self.idx[i], &mut self.val[i]);
        // Fig. 2: find the column in the row's index vector; accumulate or push.
        match cols.iter().position(|&c| c as usize == j) {
            Some(k) => vals[k] += v,
            None => {
                cols.push(j as u32);
                vals.push(v);
            }
        }
    }
}

/// The dense N×N array; both triangles are filled.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub n: usize,
    pub a: Vec<f64>,
}

impl Dense {
    pub fn new(n: usize) -> Dense {
        Dense {
            n,
            a: vec![0.0; n * n],
        }
    }
    pub fn stored_values(&self) -> usize {
        self.a.len()
    }
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.n + j]
    }
}

impl MatrixSink for Dense {
    fn add(&mut self, i: usize, j: usize, v: f64) {
        self.a[i * self.n + j] += v;
        if i != j {
            self.a[j * self.n + i] += v;
        }
    }
}

/// The symbolic pass of the skyline format: the first row of every column.
#[derive(Clone, Debug, PartialEq)]
pub struct SkylineProfile {
    pub first_row: Vec<usize>,
}

impl SkylineProfile {
    pub fn new(n: usize) -> SkylineProfile {
        SkylineProfile {
            first_row: (0..n).collect(),
        }
    }
    /// Values the skyline stores: Σ_j (j − `first_row[j]` + 1).
    pub fn stored_values(&self) -> usize {
        self.first_row
            .iter()
            .enumerate()
            .map(|(j, &f)| j - f + 1)
            .sum()
    }
}

impl MatrixSink for SkylineProfile {
    fn add(&mut self, i: usize, j: usize, _v: f64) {
        self.first_row[j] = self.first_row[j].min(i);
    }
}

/// The skyline format of eq. 3: `s` holds the columns of the upper triangle top to bottom,
/// each from its first non-zero to the diagonal; `p` (N+1 entries) points at the diagonals.
#[derive(Clone, Debug, PartialEq)]
pub struct Skyline {
    pub s: Vec<f64>,
    pub p: Vec<usize>,
}

impl Skyline {
    /// Allocates the values for a profile (all zero).
    pub fn from_profile(profile: &SkylineProfile) -> Skyline {
        let mut p = Vec::with_capacity(profile.first_row.len() + 1);
        p.push(0);
        let mut end = 0;
        for (j, &f) in profile.first_row.iter().enumerate() {
            end += j - f + 1;
            p.push(end);
        }
        Skyline {
            s: vec![0.0; end],
            p,
        }
    }

    /// The skyline of a dense upper triangle given by rows (`rows[i][j]`, j ≥ i; entries below
    /// the diagonal are ignored): the profile starts at each column's first non-zero.
    pub fn from_upper_rows(rows: &[Vec<f64>]) -> Skyline {
        let n = rows.len();
        let mut profile = SkylineProfile::new(n);
        for (i, row) in rows.iter().enumerate() {
            for (j, &v) in row.iter().enumerate().skip(i) {
                if v != 0.0 {
                    profile.add(i, j, v);
                }
            }
        }
        let mut sky = Skyline::from_profile(&profile);
        for (i, row) in rows.iter().enumerate() {
            for (j, &v) in row.iter().enumerate().skip(i) {
                if v != 0.0 {
                    sky.add(i, j, v);
                }
            }
        }
        sky
    }

    pub fn stored_values(&self) -> usize {
        self.s.len()
    }

    /// Entry (i, j), i ≤ j; zero above the skyline.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        let diag = self.p[j + 1] - 1;
        let height = self.p[j + 1] - self.p[j];
        if j - i < height {
            self.s[diag - (j - i)]
        } else {
            0.0
        }
    }
}

impl MatrixSink for Skyline {
    fn add(&mut self, i: usize, j: usize, v: f64) {
        let diag = self.p[j + 1] - 1;
        let height = self.p[j + 1] - self.p[j];
        assert!(
            j - i < height,
            "entry ({i}, {j}) above the skyline: the profile pass missed it"
        );
        self.s[diag - (j - i)] += v;
    }
}

/// The symbolic pass of CSR: each row's column set (found or pushed, sorted at the end).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CsrPattern {
    pub cols: Vec<Vec<u32>>,
}

impl CsrPattern {
    pub fn new(n: usize) -> CsrPattern {
        CsrPattern {
            cols: vec![Vec::new(); n],
        }
    }
}

impl MatrixSink for CsrPattern {
    fn add(&mut self, i: usize, j: usize, _v: f64) {
        if !self.cols[i].contains(&(j as u32)) {
            self.cols[i].push(j as u32);
        }
    }
}

/// CSR with the paper's arrays (Table 1): values `a`, column indices `j`, row lengths `len`
/// and row starts `ptr`, all 0-based here (the paper prints them 1-based: see
/// [`Csr::j_one_based`], [`Csr::ptr_one_based`]). Columns ascend within a row.
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    pub a: Vec<f64>,
    pub j: Vec<u32>,
    pub len: Vec<u32>,
    pub ptr: Vec<u32>,
}

impl Csr {
    /// Allocates the values (zero) for a pattern.
    pub fn from_pattern(pattern: &CsrPattern) -> Csr {
        let mut j = Vec::new();
        let mut len = Vec::with_capacity(pattern.cols.len());
        let mut ptr = Vec::with_capacity(pattern.cols.len());
        for row in &pattern.cols {
            let mut row = row.clone();
            row.sort_unstable();
            ptr.push(j.len() as u32);
            len.push(row.len() as u32);
            j.extend(row);
        }
        Csr {
            a: vec![0.0; j.len()],
            j,
            len,
            ptr,
        }
    }

    /// A general (not necessarily symmetric) matrix from `(row, col, value)` triplets, 0-based;
    /// duplicates are summed.
    pub fn from_triplets(rows: usize, entries: &[(usize, usize, f64)]) -> Csr {
        let mut pattern = CsrPattern::new(rows);
        for &(i, j, v) in entries {
            pattern.add(i, j, v);
        }
        let mut csr = Csr::from_pattern(&pattern);
        for &(i, j, v) in entries {
            csr.add(i, j, v);
        }
        csr
    }

    pub fn stored_values(&self) -> usize {
        self.a.len()
    }
    /// J as the paper prints it (1-based columns).
    pub fn j_one_based(&self) -> Vec<u32> {
        self.j.iter().map(|c| c + 1).collect()
    }
    /// PTR as the paper prints it (1-based positions).
    pub fn ptr_one_based(&self) -> Vec<u32> {
        self.ptr.iter().map(|p| p + 1).collect()
    }
}

impl MatrixSink for Csr {
    fn add(&mut self, i: usize, j: usize, v: f64) {
        let start = self.ptr[i] as usize;
        let end = start + self.len[i] as usize;
        let k = self.j[start..end]
            .binary_search(&(j as u32))
            .unwrap_or_else(|_| panic!("entry ({i}, {j}) not in the CSR pattern"));
        self.a[start + k] += v;
    }
}

/// Sends every entry to both sinks (one assembly pass filling two formats).
pub struct Both<'a, A: MatrixSink, B: MatrixSink>(pub &'a mut A, pub &'a mut B);

impl<A: MatrixSink, B: MatrixSink> MatrixSink for Both<'_, A, B> {
    fn add(&mut self, i: usize, j: usize, v: f64) {
        self.0.add(i, j, v);
        self.1.add(i, j, v);
    }
}
