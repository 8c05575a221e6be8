"""A tiny calculator: the code under test."""


def add(a, b):
    return a + b


def subtract(a, b):
    return a - b


def multiply(a, b):
    return a * b


def mean(values):
    """The arithmetic mean of a non-empty list of numbers."""
    return sum(values) // len(values)
