//! One [`FragmentCg`] solve, as Table 1 lists its passes: the set-up (the coefficients into
//! scalar or packed textures, `r = k − M x`, and `‖k‖₂` when converging), the iterations
//! (`ρ = r·r`, then [`FragmentCg::iteration`]: `p`, `q = M p`, `α`, `x`, `r`), the final
//! residual when converging, and `x` unpacked into the R32F result.

use super::params::CgInfo;
use super::solver::FragmentCg;
use super::trace::{Step, pass_info};
use crate::gl::Texture;
use crate::gl::observe::{Observer, observed};
use crate::gl::{Quad, Rect};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::fragment_cr::trace::ABCK;

/// A vector's label for an observer: `x1`, `x2`, … for texture `i` of vector `v`.
fn name(v: &str, i: usize) -> String {
    format!("{v}{}", i + 1)
}

/// Coefficient `i` (a, b, c, k) as a bound texture: sampler, label, texture.
fn coef(i: usize, t: &Texture) -> (&'static str, String, &Texture) {
    (["u_a", "u_b", "u_c", "u_k"][i], ABCK[i].to_string(), t)
}

/// Which of the two textures of `x`, `r` and `p` hold the current vectors.
#[derive(Clone, Copy, Debug, Default)]
struct Current {
    x: usize,
    r: usize,
    p: usize,
}

impl FragmentCg {
    pub(super) fn run(
        &mut self,
        systems: &Texture,
        mut obs: Observer<'_>,
    ) -> Result<(), TridiagonalError> {
        let obs = &mut obs;
        let mut info = CgInfo::default();
        let knorm = self.setup(systems, obs, &mut info)?;
        let mut cur = Current::default();
        let mut it = 0;
        while it < self.params.iterations {
            let rho = &self.rho[it % 2];
            // ρ = r·r
            let r = (self.r[cur.r].texture(), name("r", cur.r));
            self.square_sum_into(obs, "ρ = r·r", r, (rho, "ρ"))?;
            if let Some(tol) = self.params.tolerance
                && it % self.params.check_every.max(1) == 0
            {
                let res = self.read_scalar(rho)?.sqrt() / knorm;
                info.residual = Some(res);
                if res <= tol {
                    break;
                }
            }
            self.iteration(obs, it, &mut cur)?;
            it += 1;
        }
        self.counted(&mut info.iteration_fetches)?;
        info.iterations = it;
        if let Some(tol) = self.params.tolerance {
            let rho = &self.rho[it % 2];
            let r = (self.r[cur.r].texture(), name("r", cur.r));
            self.square_sum_into(obs, "ρ = r·r", r, (rho, "ρ"))?;
            let res = self.read_scalar(rho)?.sqrt() / knorm;
            info.residual = Some(res);
            if res.is_nan() || res > tol {
                self.info = info;
                return Err(TridiagonalError::NotConverged {
                    iterations: it,
                    residual: res,
                });
            }
        }
        self.unpack(obs, cur.x)?;
        self.info = info;
        Ok(())
    }

    /// The set-up: the coefficients into scalar/packed textures (not counted in Table 1),
    /// `x = p = 0`, `ρ_old = 1`, then `r = k − M x` (counted). Returns `‖k‖₂` when
    /// converging to a tolerance (1 otherwise).
    fn setup(
        &self,
        systems: &Texture,
        obs: &mut Observer<'_>,
        info: &mut CgInfo,
    ) -> Result<f64, TridiagonalError> {
        if let Some(c) = &self.counter {
            c.upload(&[0, 0])?;
            c.bind(7);
        }
        let sys = [("u_sys", "systems".to_string(), systems)];
        for (ch, (t, p)) in self.coef.iter().zip(&self.prog.pack).enumerate() {
            p.set_i32("u_n", self.n as i32);
            let name = ABCK[ch];
            self.pass(obs, Step::Pack(ch), p, (t, name), &sys)?;
        }
        for t in self.x.iter().chain(&self.p) {
            t.clear([0.0; 4]);
        }
        self.rho[1].clear([1.0, 0.0, 0.0, 0.0]); // ρ_old before the first iteration
        if self.counter.is_some() {
            self.counted(&mut [0, 0])?; // drop the set-up's fetches
        }
        let [ta, tb, tc, tk] = [0, 1, 2, 3].map(|i| self.coef[i].texture());
        // r = k − M x  (Table 1: 7 fetches)
        self.pass(
            obs,
            Step::Residual,
            &self.prog.residual,
            (&self.r[0], "r1"),
            &[
                ("u_v", name("x", 0), self.x[0].texture()),
                coef(0, ta),
                coef(1, tb),
                coef(2, tc),
                coef(3, tk),
            ],
        )?;
        self.counted(&mut info.setup_fetches)?;
        Ok(if self.params.tolerance.is_some() {
            let k = (tk, "k".to_string());
            self.square_sum_into(obs, "k·k", k, (&self.knorm, "k·k"))?;
            self.read_scalar(&self.knorm)?.sqrt().max(f64::MIN_POSITIVE)
        } else {
            1.0
        })
    }

    /// Iteration `it` after `ρ = r·r`: `p = r + (ρ/ρ_old) p`, `q = M p`, `α = ρ / p·q`,
    /// `x = x + α p`, `r = r − α q`, each into the other texture of its pair (`cur` follows).
    fn iteration(
        &self,
        obs: &mut Observer<'_>,
        it: usize,
        cur: &mut Current,
    ) -> Result<(), TridiagonalError> {
        let (rho, rho_old) = (&self.rho[it % 2], &self.rho[(it + 1) % 2]);
        let (xi, ri, pi) = (cur.x, cur.r, cur.p);
        let [ta, tb, tc] = [0, 1, 2].map(|i| self.coef[i].texture());
        // p = r + (ρ/ρ_old) p
        let rho_s = ("u_rho", "ρ".to_string(), rho.texture());
        self.pass(
            obs,
            Step::Direction,
            &self.prog.direction,
            (&self.p[1 - pi], &name("p", 1 - pi)),
            &[
                ("u_r", name("r", ri), self.r[ri].texture()),
                ("u_p", name("p", pi), self.p[pi].texture()),
                rho_s.clone(),
                ("u_rho_old", "ρ_old".into(), rho_old.texture()),
            ],
        )?;
        let pi = 1 - pi;
        cur.p = pi;
        // q = M p
        let pt = self.p[pi].texture();
        let p_s = (name("p", pi), pt);
        let q = (&self.q, "q");
        let vec = |u, (l, t): &(String, _)| (u, l.clone(), *t);
        let abc = [coef(0, ta), coef(1, tb), coef(2, tc)];
        let mv = [&[vec("u_v", &p_s)][..], &abc].concat();
        self.pass(obs, Step::Matvec, &self.prog.matvec, q, &mv)?;
        // α = ρ / p·q
        let qt = ("q".to_string(), self.q.texture());
        let pq = [vec("u_u", &p_s), vec("u_v", &qt)];
        let terms = "p·q terms";
        self.pass(obs, Step::Mul, &self.prog.mul, (&self.prod, terms), &pq)?;
        self.reduce_into(obs, "p·q", terms, (&self.pq, "p·q"))?;
        let scal = [rho_s, ("u_pq", "p·q".into(), self.pq.texture())];
        // x = x + α p, r = r − α q
        let xs = [
            ("u_y", name("x", xi), self.x[xi].texture()),
            vec("u_z", &p_s),
            scal[0].clone(),
            scal[1].clone(),
        ];
        let x_new = (&self.x[1 - xi], name("x", 1 - xi));
        self.pass(obs, Step::Add, &self.prog.add, (x_new.0, &x_new.1), &xs)?;
        cur.x = 1 - xi;
        let rs = [
            ("u_y", name("r", ri), self.r[ri].texture()),
            vec("u_z", &qt),
            scal[0].clone(),
            scal[1].clone(),
        ];
        let r_new = (&self.r[1 - ri], name("r", 1 - ri));
        self.pass(obs, Step::Sub, &self.prog.sub, (r_new.0, &r_new.1), &rs)?;
        cur.r = 1 - ri;
        Ok(())
    }

    /// `x` (texture `xi` of its pair) → the R32F result.
    fn unpack(&self, obs: &mut Observer<'_>, xi: usize) -> Result<(), TridiagonalError> {
        let b = self.batch as u32;
        let (out, unpack) = (&self.out, &self.prog.unpack);
        let src = [("u_x", name("x", xi), self.x[xi].texture())];
        let quad = Quad::identity(Rect::full(self.n as u32, b));
        let info_of = || {
            pass_info(
                &self.params,
                Step::Unpack,
                &src,
                ("x (result)", out.texture()),
                quad,
            )
        };
        observed(obs, info_of, || {
            out.bind();
            unpack.bind_texture(0, "u_x", src[0].2);
            self.out_quad.draw(unpack, self.n as u32, b)?;
            Ok::<(), TridiagonalError>(())
        })
    }
}
