import path from 'node:path';
import { oneFileHypothesis, writeTree, type BenchProject } from './project';

/**
 * A pytest project of five modules and about a hundred tests, some of which do a little real work
 * (sieves, shortest paths, text statistics), so a run takes about a second of CPU.
 */
const textproc = (wordsBody: string): string => `"""Tokenising and simple statistics over text."""

from collections import Counter
import re

_WORD = re.compile(r"[A-Za-z']+")


def words(text):
${wordsBody}


def word_counts(text):
    return Counter(words(text))


def top_words(text, n):
    counts = word_counts(text)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def sentences(text):
    return [s.strip() for s in re.split(r"[.!?]+", text) if s.strip()]


def average_sentence_length(text):
    parts = sentences(text)
    if not parts:
        return 0.0
    return sum(len(words(p)) for p in parts) / len(parts)


def ngrams(tokens, n):
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def edit_distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]
`;

const wordsBase = '    return [w.lower() for w in _WORD.findall(text)]';
const wordsFixed =
  '    return [w.lower().strip("\'") for w in _WORD.findall(text) if w.strip("\'")]';

const numbers = (sieveBody: string): string => `"""Number theory helpers."""


def primes_below(limit):
${sieveBody}


def factorize(n):
    factors = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1:
        factors.append(n)
    return factors


def gcd(a, b):
    while b:
        a, b = b, a % b
    return abs(a)


def collatz_length(n):
    steps = 1
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def digit_sum(n):
    return sum(int(c) for c in str(abs(n)))
`;

const sieveBase = `    if limit < 3:
        return []
    sieve = bytearray([1]) * limit
    sieve[0] = sieve[1] = 0
    for i in range(2, int(limit**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytearray(len(range(i * i, limit, i)))
    return [i for i, flag in enumerate(sieve) if flag]`;

const sieveOdd = `    if limit < 3:
        return []
    sieve = bytearray([1]) * limit
    sieve[0] = sieve[1] = 0
    sieve[4::2] = bytearray(len(range(4, limit, 2)))
    for i in range(3, int(limit**0.5) + 1, 2):
        if sieve[i]:
            sieve[i * i :: 2 * i] = bytearray(len(range(i * i, limit, 2 * i)))
    return [i for i, flag in enumerate(sieve) if flag]`;

const graph = (pathBody: string): string => `"""A small weighted graph with shortest paths."""

import heapq


class Graph:
    def __init__(self):
        self.edges = {}

    def add_edge(self, a, b, weight=1):
        self.edges.setdefault(a, []).append((b, weight))
        self.edges.setdefault(b, []).append((a, weight))

    def neighbours(self, node):
        return [n for n, _ in self.edges.get(node, [])]

    def shortest_path(self, start, goal):
${pathBody}

    def components(self):
        seen, result = set(), []
        for node in self.edges:
            if node in seen:
                continue
            stack, component = [node], []
            seen.add(node)
            while stack:
                current = stack.pop()
                component.append(current)
                for n in self.neighbours(current):
                    if n not in seen:
                        seen.add(n)
                        stack.append(n)
            result.append(sorted(component))
        return result


def grid(width, height):
    g = Graph()
    for x in range(width):
        for y in range(height):
            if x + 1 < width:
                g.add_edge((x, y), (x + 1, y), 1 + (x * y) % 3)
            if y + 1 < height:
                g.add_edge((x, y), (x, y + 1), 1 + (x + y) % 4)
    return g
`;

const pathBase = `        dist = {start: 0}
        queue = [(0, start)]
        while queue:
            d, node = heapq.heappop(queue)
            if node == goal:
                return d
            if d > dist.get(node, float("inf")):
                continue
            for n, w in self.edges.get(node, []):
                nd = d + w
                if nd < dist.get(n, float("inf")):
                    dist[n] = nd
                    heapq.heappush(queue, (nd, n))
        return None`;

const pathOffByOne = pathBase.replace('nd = d + w', 'nd = d + w + (1 if n == goal else 0)');

const money = (roundBody: string): string => `"""Money amounts in cents, with allocation and tax."""

from decimal import Decimal, ROUND_HALF_EVEN


def to_cents(amount):
    return int((Decimal(str(amount)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


def round_cents(value):
${roundBody}


def allocate(total_cents, ratios):
    weight = sum(ratios)
    shares = [total_cents * r // weight for r in ratios]
    for i in range(total_cents - sum(shares)):
        shares[i % len(shares)] += 1
    return shares


def with_tax(cents, rate_percent):
    return cents + round_cents(cents * rate_percent / 100)


def format_cents(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"
`;

const roundBase =
  '    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))';
const roundFloat = '    return round(value)';

const tests = `import pytest

from graph import Graph, grid
from money import allocate, format_cents, to_cents, with_tax
from numbers_ import collatz_length, digit_sum, factorize, gcd, primes_below
from textproc import average_sentence_length, edit_distance, ngrams, top_words, word_counts, words

TEXT = "The cat sat. The dog sat! A cat and a dog? The end." * 40


@pytest.mark.parametrize("n", range(2, 40))
def test_factorize_multiplies_back(n):
    product = 1
    for f in factorize(n * 9973):
        product *= f
    assert product == n * 9973


@pytest.mark.parametrize("limit", [10, 100, 1000, 10_000, 300_000])
def test_primes_below(limit):
    primes = primes_below(limit)
    assert all(p < limit for p in primes)
    assert primes[:4] == [2, 3, 5, 7] or limit < 10
    assert len(primes) == {10: 4, 100: 25, 1000: 168, 10_000: 1229, 300_000: 25997}[limit]


@pytest.mark.parametrize("a,b,expected", [(12, 18, 6), (7, 13, 1), (0, 5, 5), (-4, 6, 2)])
def test_gcd(a, b, expected):
    assert gcd(a, b) == expected


@pytest.mark.parametrize("n", range(1, 29))
def test_collatz_and_digits(n):
    assert collatz_length(n * 1001) > 0
    assert digit_sum(n * 111) == sum(int(c) for c in str(n * 111))


def test_words_and_counts():
    assert words("It's a Cat") == ["it's", "a", "cat"]
    assert word_counts(TEXT)["the"] == 120
    assert top_words(TEXT, 2) == [("the", 120), ("a", 80)]
    assert average_sentence_length("One two. Three!") == 1.5
    assert ngrams(["a", "b", "c"], 2) == [("a", "b"), ("b", "c")]


@pytest.mark.parametrize("a,b,d", [("kitten", "sitting", 3), ("", "abc", 3), ("same", "same", 0)])
def test_edit_distance(a, b, d):
    assert edit_distance(a * 20, b * 20) == d * 20


@pytest.mark.parametrize("size", [5, 10, 20, 40, 60])
def test_grid_shortest_path(size):
    g = grid(size, size)
    d = g.shortest_path((0, 0), (size - 1, size - 1))
    assert d is not None and d >= 2 * (size - 1)
    assert len(g.components()) == 1


def test_path_in_a_line():
    g = Graph()
    for i in range(10):
        g.add_edge(i, i + 1, 2)
    assert g.shortest_path(0, 10) == 20
    assert g.shortest_path(0, 99) is None


@pytest.mark.parametrize(
    "amount,cents", [(1.005, 100), (2.5, 250), (0.1, 10), (19.99, 1999), (-3.3, -330)]
)
def test_to_cents(amount, cents):
    assert to_cents(amount) == cents


@pytest.mark.parametrize("total,ratios", [(100, [1, 1, 1]), (1001, [3, 7]), (5, [1, 1, 1, 1, 1, 1])])
def test_allocate_keeps_the_total(total, ratios):
    assert sum(allocate(total, ratios)) == total


@pytest.mark.parametrize("cents,rate,expected", [(1000, 20, 1200), (250, 10, 275), (5, 50, 7)])
def test_with_tax(cents, rate, expected):
    assert with_tax(cents, rate) == expected


@pytest.mark.parametrize("cents,text", [(0, "0.00"), (5, "0.05"), (12345, "123.45"), (-70, "-0.70")])
def test_format_cents(cents, text):
    assert format_cents(cents) == text
`;

export async function createPytestProject(root: string): Promise<BenchProject> {
  const dir = path.join(root, 'pytest-project');
  const files = new Map<string, string>([
    ['textproc.py', textproc(wordsBase)],
    ['numbers_.py', numbers(sieveBase)],
    ['graph.py', graph(pathBase)],
    ['money.py', money(roundBase)],
    ['test_all.py', tests],
    ['pytest.ini', '[pytest]\naddopts = -q\n'],
    ['.gitignore', '__pycache__/\n'],
  ]);
  const lines = await writeTree(dir, files);
  return {
    kind: 'pytest',
    dir,
    command: ['python3', '-m', 'pytest'],
    warmCommand: ['python3', '-m', 'compileall', '-q', '.'],
    hypotheses: [
      oneFileHypothesis('sieve-odd', 'numbers_.py', numbers(sieveOdd)),
      oneFileHypothesis('strip-quotes', 'textproc.py', textproc(wordsFixed)),
      oneFileHypothesis('path-off-by-one', 'graph.py', graph(pathOffByOne)),
      oneFileHypothesis('round-float', 'money.py', money(roundFloat)),
    ],
    stats: { files: files.size, lines, tests: 100 },
  };
}
