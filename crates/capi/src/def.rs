//! What all definitions share: the initialisation marker and the checks of enumeration fields.
//!
//! A C definition is a plain structure the caller fills in, so it can hold stack garbage in a
//! field the caller forgot. Every definition therefore ends with `internal_value`, which its
//! `prism_default_*_def()` function sets to a fixed marker; creation refuses a definition
//! without it (`PRISM_STATUS_UNINITIALIZED_DEF`). Starting from the default also means that a
//! field added in a later version gets its default in programs written before it.
//!
//! Enumeration fields are plain integers in the structures (`PrismBodyType`, …), read as
//! integers and checked against their constants here, so a wrong value is an error
//! (`PRISM_STATUS_INVALID_ENUM`) rather than an invalid Rust enum.

use crate::status::{CapiError, PrismStatus};

/// The marker a default function puts in `internal_value` ("PRSM").
pub(crate) const DEF_MARKER: i32 = 0x5052_534d;

/// Checks that the definition `def` came from `default_function`.
pub(crate) fn check_marker(
    internal_value: i32,
    def: &str,
    default_function: &str,
) -> Result<(), CapiError> {
    if internal_value == DEF_MARKER {
        Ok(())
    } else {
        Err(CapiError::uninitialized(def, default_function))
    }
}

/// The value of `choices` whose constant equals `value`, or an error naming `field` and listing
/// the constants.
pub(crate) fn enum_value<T: Copy>(
    field: &str,
    value: u32,
    choices: &[(u32, &str, T)],
) -> Result<T, CapiError> {
    if let Some(&(_, _, choice)) = choices.iter().find(|(constant, _, _)| *constant == value) {
        return Ok(choice);
    }
    let allowed: Vec<String> = choices
        .iter()
        .map(|(constant, name, _)| format!("{name} ({constant})"))
        .collect();
    Err(CapiError::new(
        PrismStatus::InvalidEnum,
        format!(
            "`{field}` must be one of {}, got {value}",
            allowed.join(", ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_constant_is_named_with_the_choices() {
        let choices = [(0, "A", 'a'), (1, "B", 'b')];
        assert_eq!(enum_value("PrismX::kind", 1, &choices), Ok('b'));
        let error = enum_value("PrismX::kind", 9, &choices).unwrap_err();
        assert_eq!(error.status, PrismStatus::InvalidEnum);
        assert_eq!(
            error.message,
            "`PrismX::kind` must be one of A (0), B (1), got 9"
        );
        assert_eq!(
            check_marker(0, "PrismX", "prism_default_x")
                .unwrap_err()
                .status,
            PrismStatus::UninitializedDef
        );
    }
}
