//! The simulations' generic layer: what any simulation on a 2D grid offers ([`Simulation`]),
//! a headless run ([`headless`]: steps per second, PNG frames), and the live viewer.
//!
//! Nothing here knows a paper: the simulations themselves live with the paper they come from
//! (the ADI simulations of Kim & Lee 2005 in `papers::tridiagonal::adi`, BioFET in
//! `papers::bicg::biofet`) and are listed once, in the registry. The papers use this layer;
//! it uses only `gl` and `report`.
//!
//! [`frames`] writes a field as a PNG (viridis with its colour bar), [`render`] draws it on
//! the GPU (the colour-mapped field, or a lit 3D surface); [`viewer`] shows a simulation live
//! ([`live`] its frame, [`overlay`] the colour bar and text drawn in the window, [`split`] two
//! solvers side by side on the same state).

pub mod args;
pub mod error;
pub mod frames;
pub mod headless;
pub mod live;
pub mod overlay;
pub mod render;
pub mod simulation;
pub mod solvers;
pub mod split;
pub mod viewer;

pub use args::SimArgs;
pub use error::SimError;
pub use simulation::{FieldRef, Simulation, Snapshot};
pub use solvers::{MakeSim, Solvers};
