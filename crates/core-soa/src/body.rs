//! Body tiers (to be written).
