use cargo_calc::{add, largest};

#[test]
fn adds_two_numbers() {
    assert_eq!(add(2, 3), 5);
}

#[test]
fn largest_of_mixed_values() {
    assert_eq!(largest(&[3, 9, 4]), Some(9));
}

#[test]
fn largest_of_negative_values() {
    assert_eq!(largest(&[-5, -2, -7]), Some(-2));
}
