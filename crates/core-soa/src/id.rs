//! Generational ids and id pools (to be written).
