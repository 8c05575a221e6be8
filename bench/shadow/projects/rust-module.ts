/**
 * Source text of one module of the generated Rust crate: a generic record store with a secondary
 * index, scoring, a text codec, a small query language, iterator adaptors and generic helpers, so
 * rustc has real type-checking, monomorphisation and codegen to do. Modules differ in their names,
 * constants and which neighbour they call into. `variant` swaps in one function body: that is how
 * the benchmark's hypotheses are made.
 */
export type ModuleVariant = 'base' | 'checksum-loop' | 'top-n-unstable' | 'normalize-bug';

export interface ModuleSpec {
  /** snake_case module name. */
  readonly name: string;
  readonly index: number;
  /** The module this one calls into (by name). */
  readonly neighbour: string;
}

function camel(name: string): string {
  return name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function checksumFn(variant: ModuleVariant): string {
  if (variant === 'checksum-loop') {
    return `/// Order-sensitive 64-bit checksum of a byte string, seeded per module.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut acc = SEED;
    for chunk in bytes.chunks(4) {
        for b in chunk {
            acc = mix(acc, u64::from(*b));
        }
    }
    acc
}`;
  }
  return `/// Order-sensitive 64-bit checksum of a byte string, seeded per module.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(SEED, |acc, b| mix(acc, u64::from(*b)))
}`;
}

function topNFn(n: string, variant: ModuleVariant): string {
  const sort =
    variant === 'top-n-unstable'
      ? `        ranked.sort_unstable_by_key(|r| (std::cmp::Reverse(r.score()), r.id));`
      : `        ranked.sort_by(|a, b| b.score().cmp(&a.score()).then(a.id.cmp(&b.id)));`;
  return `    /// The \`n\` best-scoring records, best first; ties go to the older record.
    pub fn top_n(&self, n: usize) -> Vec<&${n}Record<T>> {
        let mut ranked: Vec<&${n}Record<T>> = self.items.values().collect();
${sort}
        ranked.truncate(n);
        ranked
    }`;
}

function normalizeFn(variant: ModuleVariant): string {
  const body =
    variant === 'normalize-bug'
      ? `    key.trim().chars().filter(|c| !c.is_whitespace()).collect()`
      : `    key.trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()`;
  return `/// Keys are compared case-insensitively and without inner whitespace.
pub fn normalize_key(key: &str) -> String {
${body}
}`;
}

export function rustModule(spec: ModuleSpec, variant: ModuleVariant = 'base'): string {
  const n = camel(spec.name);
  const seed = 0x9e37_79b9_7f4a_7c15n ^ BigInt(spec.index * 7919 + 17);
  const weight = 3 + (spec.index % 7);
  const low = 10 + spec.index;
  const high = 100 + spec.index * 3;
  const nb = spec.neighbour;
  return `//! ${spec.name}: records keyed by id with a secondary index by key, scoring, a compact text
//! encoding and a small query language.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::common::{mix, Codec, DecodeError, Scored, Summary};

pub const SEED: u64 = 0x${seed.toString(16)};
const TAG_WEIGHT: i64 = ${weight};

#[derive(Debug, Clone, PartialEq)]
pub struct ${n}Record<T> {
    pub id: u64,
    pub key: String,
    pub value: T,
    pub tags: Vec<String>,
}

impl<T: Scored> Scored for ${n}Record<T> {
    fn score(&self) -> i64 {
        self.value.score() + self.tags.len() as i64 * TAG_WEIGHT
    }
}

impl<T: Codec> Codec for ${n}Record<T> {
    fn encode(&self, out: &mut String) {
        out.push_str(&self.id.to_string());
        out.push('|');
        out.push_str(&self.key);
        out.push('|');
        self.value.encode(out);
        out.push('|');
        out.push_str(&self.tags.join(","));
    }

    fn decode(text: &str) -> Result<Self, DecodeError> {
        let mut parts = text.splitn(4, '|');
        let id = parts
            .next()
            .ok_or(DecodeError::Missing("id"))?
            .parse::<u64>()
            .map_err(|_| DecodeError::Invalid("id"))?;
        let key = parts.next().ok_or(DecodeError::Missing("key"))?.to_string();
        let value = T::decode(parts.next().ok_or(DecodeError::Missing("value"))?)?;
        let tags = match parts.next() {
            None | Some("") => Vec::new(),
            Some(list) => list.split(',').map(str::to_string).collect(),
        };
        Ok(Self { id, key, value, tags })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ${n}Level {
    Low,
    Medium,
    High,
    Critical,
}

impl ${n}Level {
    pub fn from_score(score: i64) -> Self {
        match score {
            s if s < ${low} => Self::Low,
            s if s < ${high} => Self::Medium,
            s if s < ${high * 4} => Self::High,
            _ => Self::Critical,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
            Self::Critical => "critical",
        }
    }
}

impl fmt::Display for ${n}Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ${n}Filter {
    Key(String),
    Tag(String),
    MinScore(i64),
    Level(${n}Level),
}

impl ${n}Filter {
    pub fn matches<T: Scored>(&self, record: &${n}Record<T>) -> bool {
        match self {
            Self::Key(key) => normalize_key(&record.key) == normalize_key(key),
            Self::Tag(tag) => record.tags.iter().any(|t| t == tag),
            Self::MinScore(min) => record.score() >= *min,
            Self::Level(level) => ${n}Level::from_score(record.score()) == *level,
        }
    }
}

/// Parses \`key:abc tag:x min:10 level:high\` into filters; every term must match.
pub fn parse_query(query: &str) -> Result<Vec<${n}Filter>, DecodeError> {
    query
        .split_whitespace()
        .map(|term| {
            let (kind, arg) = term.split_once(':').ok_or(DecodeError::Invalid("term"))?;
            match kind {
                "key" => Ok(${n}Filter::Key(arg.to_string())),
                "tag" => Ok(${n}Filter::Tag(arg.to_string())),
                "min" => arg
                    .parse::<i64>()
                    .map(${n}Filter::MinScore)
                    .map_err(|_| DecodeError::Invalid("min")),
                "level" => match arg {
                    "low" => Ok(${n}Filter::Level(${n}Level::Low)),
                    "medium" => Ok(${n}Filter::Level(${n}Level::Medium)),
                    "high" => Ok(${n}Filter::Level(${n}Level::High)),
                    "critical" => Ok(${n}Filter::Level(${n}Level::Critical)),
                    _ => Err(DecodeError::Invalid("level")),
                },
                _ => Err(DecodeError::Invalid("kind")),
            }
        })
        .collect()
}

#[derive(Debug, Clone)]
pub struct ${n}Store<T> {
    items: BTreeMap<u64, ${n}Record<T>>,
    by_key: HashMap<String, Vec<u64>>,
    next_id: u64,
}

impl<T> Default for ${n}Store<T> {
    fn default() -> Self {
        Self { items: BTreeMap::new(), by_key: HashMap::new(), next_id: 1 }
    }
}

impl<T: Clone + Scored + Codec + fmt::Debug> ${n}Store<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn insert(&mut self, key: &str, value: T, tags: &[&str]) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let record = ${n}Record {
            id,
            key: key.to_string(),
            value,
            tags: tags.iter().map(|t| (*t).to_string()).collect(),
        };
        self.by_key.entry(normalize_key(key)).or_default().push(id);
        self.items.insert(id, record);
        id
    }

    pub fn get(&self, id: u64) -> Option<&${n}Record<T>> {
        self.items.get(&id)
    }

    pub fn remove(&mut self, id: u64) -> Option<${n}Record<T>> {
        let record = self.items.remove(&id)?;
        let normalized = normalize_key(&record.key);
        if let Some(ids) = self.by_key.get_mut(&normalized) {
            ids.retain(|other| *other != id);
            if ids.is_empty() {
                self.by_key.remove(&normalized);
            }
        }
        Some(record)
    }

    pub fn find(&self, key: &str) -> Vec<&${n}Record<T>> {
        self.by_key
            .get(&normalize_key(key))
            .map(|ids| ids.iter().filter_map(|id| self.items.get(id)).collect())
            .unwrap_or_default()
    }

    pub fn filter<F: Fn(&${n}Record<T>) -> bool>(&self, predicate: F) -> Vec<&${n}Record<T>> {
        self.items.values().filter(|r| predicate(r)).collect()
    }

    pub fn query(&self, query: &str) -> Result<Vec<&${n}Record<T>>, DecodeError> {
        let filters = parse_query(query)?;
        Ok(self.filter(|record| filters.iter().all(|f| f.matches(record))))
    }

    pub fn map_values<U, F: Fn(&T) -> U>(&self, f: F) -> Vec<(u64, U)> {
        self.items.iter().map(|(id, r)| (*id, f(&r.value))).collect()
    }

${topNFn(n, variant)}

    pub fn summary(&self) -> Summary {
        Summary::of(self.items.values().map(Scored::score))
    }

    pub fn levels(&self) -> BTreeMap<${n}Level, usize> {
        let mut counts = BTreeMap::new();
        for record in self.items.values() {
            *counts.entry(${n}Level::from_score(record.score())).or_insert(0) += 1;
        }
        counts
    }

    pub fn group_by_tag(&self) -> BTreeMap<String, Vec<u64>> {
        let mut groups: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for record in self.items.values() {
            for tag in &record.tags {
                groups.entry(tag.clone()).or_default().push(record.id);
            }
        }
        groups
    }

    pub fn encode_all(&self) -> String {
        let mut out = String::new();
        for record in self.items.values() {
            record.encode(&mut out);
            out.push('\\n');
        }
        out
    }

    pub fn decode_all(text: &str) -> Result<Self, DecodeError> {
        let mut store = Self::new();
        for line in text.lines().filter(|l| !l.is_empty()) {
            let record = ${n}Record::<T>::decode(line)?;
            store.next_id = store.next_id.max(record.id + 1);
            store.by_key.entry(normalize_key(&record.key)).or_default().push(record.id);
            store.items.insert(record.id, record);
        }
        Ok(store)
    }

    pub fn fingerprint(&self) -> u64 {
        let encoded = self.encode_all();
        mix(checksum(encoded.as_bytes()), crate::${nb}::checksum(encoded.as_bytes()))
    }
}

${checksumFn(variant)}

${normalizeFn(variant)}

/// Fixed-size windows over a slice, stepping by one.
pub struct ${n}Windows<'a, T> {
    items: &'a [T],
    size: usize,
    pos: usize,
}

impl<'a, T> Iterator for ${n}Windows<'a, T> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<Self::Item> {
        if self.size == 0 || self.pos + self.size > self.items.len() {
            return None;
        }
        let window = &self.items[self.pos..self.pos + self.size];
        self.pos += 1;
        Some(window)
    }
}

pub fn windows<T>(items: &[T], size: usize) -> ${n}Windows<'_, T> {
    ${n}Windows { items, size, pos: 0 }
}

pub fn moving_average(values: &[i64], size: usize) -> Vec<f64> {
    windows(values, size)
        .map(|w| w.iter().sum::<i64>() as f64 / w.len() as f64)
        .collect()
}

pub fn run_lengths<T: PartialEq + Clone>(items: &[T]) -> Vec<(T, usize)> {
    let mut runs: Vec<(T, usize)> = Vec::new();
    for item in items {
        match runs.last_mut() {
            Some((last, count)) if last == item => *count += 1,
            _ => runs.push((item.clone(), 1)),
        }
    }
    runs
}

pub fn partition_by<T: Clone, F: Fn(&T) -> bool>(items: &[T], predicate: F) -> (Vec<T>, Vec<T>) {
    items.iter().cloned().partition(|item| predicate(item))
}

pub fn merge_sorted<T: Ord + Clone>(left: &[T], right: &[T]) -> Vec<T> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(left.len() + right.len());
    while i < left.len() && j < right.len() {
        if left[i] <= right[j] {
            out.push(left[i].clone());
            i += 1;
        } else {
            out.push(right[j].clone());
            j += 1;
        }
    }
    out.extend_from_slice(&left[i..]);
    out.extend_from_slice(&right[j..]);
    out
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let b_chars: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b_chars.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b_chars.len() + 1];
        for (j, cb) in b_chars.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            current[j + 1] = (previous[j] + cost).min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b_chars.len()]
}

pub fn classify<T: Scored>(items: &[T]) -> BTreeMap<${n}Level, usize> {
    let mut counts = BTreeMap::new();
    for item in items {
        *counts.entry(${n}Level::from_score(item.score())).or_insert(0) += 1;
    }
    counts
}

/// Builds a small store of each value type this module supports and reports on it.
pub fn demo() -> (Summary, u64) {
    let mut numbers: ${n}Store<i64> = ${n}Store::new();
    let mut texts: ${n}Store<String> = ${n}Store::new();
    let mut pairs: ${n}Store<crate::common::Pair> = ${n}Store::new();
    for i in 0..${8 + (spec.index % 5)}_i64 {
        numbers.insert(&format!("n{}", i % 3), i * ${weight}, &["num"]);
        texts.insert(&format!("T {}", i % 4), "x".repeat(i as usize), &["text", "demo"]);
        pairs.insert("pair", crate::common::Pair(i, ${weight} - i), &[]);
    }
    let summary = numbers.summary().merge(&texts.summary()).merge(&pairs.summary());
    (summary, numbers.fingerprint() ^ texts.fingerprint() ^ pairs.fingerprint())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ${n}Store<i64> {
        let mut store = ${n}Store::new();
        store.insert("Alpha", 40, &["a", "b"]);
        store.insert("beta", 90, &[]);
        store.insert("ALPHA", 40, &["c"]);
        store.insert("gamma", -5, &["a"]);
        store
    }

    #[test]
    fn encoding_round_trips_and_keeps_the_fingerprint() {
        let store = sample();
        let decoded = ${n}Store::<i64>::decode_all(&store.encode_all()).unwrap();
        assert_eq!(decoded.len(), store.len());
        assert_eq!(decoded.fingerprint(), store.fingerprint());
        assert_eq!(decoded.find("alpha").len(), 2);
    }

    #[test]
    fn ranks_queries_and_groups() {
        let store = sample();
        let top: Vec<u64> = store.top_n(3).iter().map(|r| r.id).collect();
        assert_eq!(top, vec![2, 1, 3]);
        assert_eq!(store.query("key:alpha tag:c").unwrap().len(), 1);
        assert_eq!(store.group_by_tag()["a"], vec![1, 4]);
        assert_eq!(run_lengths(&[1, 1, 2]), vec![(1, 2), (2, 1)]);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(merge_sorted(&[1, 4], &[2, 3]), vec![1, 2, 3, 4]);
    }
}
`;
}
