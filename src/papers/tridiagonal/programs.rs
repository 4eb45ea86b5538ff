//! Every shader program this paper builds, in one place: the solvers take their
//! `(file, #define set)` pairs from these functions, and [`program_variants`] lists every
//! combination the code can ask for, so that a test compiles them all (a broken variant
//! fails in CI, not in a full run).

use crate::gl::Define;
use crate::papers::lu::arith2005::Arith2005;

/// A shader file (under `glsl/`) and the `#define`s it is compiled with.
pub type Variant = (&'static str, Vec<Define>);

fn counted(count_fetches: bool) -> Vec<Define> {
    if count_fetches {
        vec![Define::flag("COUNT_FETCHES")]
    } else {
        vec![]
    }
}

fn with(mut base: Vec<Define>, extra: &[Define]) -> Vec<Define> {
    base.extend_from_slice(extra);
    base
}

/// The fragment CR's programs: reduction, fill, the RGBA copy (pad, gather) and the R32F
/// copy (collect); `count_fetches` builds the instrumented ones (Table 1); `arith` routes the
/// reduction's and the fill's arithmetic through the 2005 model (the LU paper's
/// [`crate::papers::lu::arith2005`]).
pub fn cr_programs(count_fetches: bool, arith: Arith2005) -> [Variant; 4] {
    let d = counted(count_fetches);
    [
        (
            "tridiagonal/cr_reduce.frag",
            with(d.clone(), &arith.defines()),
        ),
        (
            "tridiagonal/cr_fill.frag",
            with(d.clone(), &arith.defines()),
        ),
        (
            "tridiagonal/copy.frag",
            with(d.clone(), &[Define::new("NFLOATS", "4u")]),
        ),
        (
            "tridiagonal/copy.frag",
            with(d, &[Define::new("NFLOATS", "1u")]),
        ),
    ]
}

/// The fragment CG's programs with `lanes` unknowns per texel (1 or 4), in this order:
/// pack (channels a, b, c, k), unpack, residual, matvec, square, multiply, reduce,
/// direction, x update (+), r update (−). `arith`: every arithmetic program under the 2005
/// model (as [`cr_programs`]).
pub fn cg_programs(lanes: u32, count_fetches: bool, arith: Arith2005) -> [Variant; 13] {
    let d = with(
        counted(count_fetches),
        &[vec![Define::new("LANES", lanes)], arith.defines()].concat(),
    );
    let v = |f: &'static str, extra: &[Define]| (f, with(d.clone(), extra));
    let pack = |ch: u32| v("tridiagonal/cg_pack.frag", &[Define::new("CHANNEL", ch)]);
    [
        pack(0),
        pack(1),
        pack(2),
        pack(3),
        v("tridiagonal/cg_unpack.frag", &[]),
        v("tridiagonal/cg_matvec.frag", &[Define::flag("RESIDUAL")]),
        v("tridiagonal/cg_matvec.frag", &[]),
        v("tridiagonal/cg_mul.frag", &[Define::flag("SQUARE")]),
        v("tridiagonal/cg_mul.frag", &[]),
        v("tridiagonal/cg_reduce.frag", &[]),
        v("tridiagonal/cg_direction.frag", &[]),
        v("tridiagonal/cg_axpy.frag", &[Define::new("SIGN", "1.0")]),
        v("tridiagonal/cg_axpy.frag", &[Define::new("SIGN", "-1.0")]),
    ]
}

/// Every fragment program variant of the paper (compute variants: see
/// `compute::program_variants`, whose defines depend on the system size).
pub fn program_variants() -> Vec<Variant> {
    let mut v = vec![];
    for count in [false, true] {
        v.extend(cr_programs(count, Arith2005::IEEE));
        for lanes in [1, 4] {
            v.extend(cg_programs(lanes, count, Arith2005::IEEE));
        }
    }
    // The 2005 arithmetic model (the `arith2005` table).
    v.extend(cr_programs(false, Arith2005::ALL));
    for lanes in [1, 4] {
        v.extend(cg_programs(lanes, false, Arith2005::ALL));
    }
    v
}
