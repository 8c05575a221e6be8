//! A tiny calculator: the code under test.

/// The sum of two numbers.
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The largest of the values, or `None` when there are none.
pub fn largest(values: &[i64]) -> Option<i64> {
    let mut best = 0;
    for &value in values {
        if value > best {
            best = value;
        }
    }
    if values.is_empty() {
        None
    } else {
        Some(best)
    }
}
