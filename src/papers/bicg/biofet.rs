//! BioFET placeholder (replaced below).
