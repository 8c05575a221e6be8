import path from 'node:path';
import type { Hypothesis } from '../../../server/engine/shadow';
import { oneFileHypothesis, writeTree, type BenchProject } from './project';
import { rustModule, type ModuleSpec, type ModuleVariant } from './rust-module';

const moduleNames = [
  'inventory', 'ledger', 'routing', 'schedule', 'geometry', 'tokens', 'graph_index', 'cache_policy',
  'metrics', 'histogram', 'bitsets', 'ring_buffer', 'intervals', 'priority', 'rational', 'polynomial',
  'sparse_rows', 'prefix_tree', 'bloom', 'lru_map', 'event_log', 'settings', 'units', 'money',
  'calendar', 'csv_rows', 'json_lite', 'compress', 'line_diff', 'search', 'sessions', 'permissions',
] as const; // prettier-ignore

const specs: ModuleSpec[] = moduleNames.map((name, index) => ({
  name,
  index,
  neighbour: moduleNames[(index + 1) % moduleNames.length] ?? name,
}));

const common = `//! Traits and helpers shared by every module.

use std::fmt;

/// 64-bit mixing step (a multiply-xorshift), used by every module's checksum.
pub fn mix(acc: u64, value: u64) -> u64 {
    let x = (acc ^ value).wrapping_mul(0x0100_0000_01b3);
    x ^ (x >> 29)
}

pub trait Scored {
    fn score(&self) -> i64;
}

pub trait Codec: Sized {
    fn encode(&self, out: &mut String);
    fn decode(text: &str) -> Result<Self, DecodeError>;
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    Missing(&'static str),
    Invalid(&'static str),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing(what) => write!(f, "missing {what}"),
            Self::Invalid(what) => write!(f, "invalid {what}"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl Scored for i64 {
    fn score(&self) -> i64 {
        *self
    }
}

impl Codec for i64 {
    fn encode(&self, out: &mut String) {
        out.push_str(&self.to_string());
    }
    fn decode(text: &str) -> Result<Self, DecodeError> {
        text.parse().map_err(|_| DecodeError::Invalid("integer"))
    }
}

impl Scored for String {
    fn score(&self) -> i64 {
        self.chars().count() as i64
    }
}

impl Codec for String {
    fn encode(&self, out: &mut String) {
        out.push_str(self);
    }
    fn decode(text: &str) -> Result<Self, DecodeError> {
        Ok(text.to_string())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair(pub i64, pub i64);

impl Scored for Pair {
    fn score(&self) -> i64 {
        self.0 * 2 + self.1
    }
}

impl Codec for Pair {
    fn encode(&self, out: &mut String) {
        out.push_str(&format!("{};{}", self.0, self.1));
    }
    fn decode(text: &str) -> Result<Self, DecodeError> {
        let (a, b) = text.split_once(';').ok_or(DecodeError::Missing("pair"))?;
        let parse = |s: &str| s.parse::<i64>().map_err(|_| DecodeError::Invalid("pair"));
        Ok(Pair(parse(a)?, parse(b)?))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    pub count: usize,
    pub min: i64,
    pub max: i64,
    pub total: i64,
}

impl Summary {
    pub fn of<I: IntoIterator<Item = i64>>(scores: I) -> Self {
        scores.into_iter().fold(Self::default(), |s, x| Self {
            count: s.count + 1,
            min: if s.count == 0 { x } else { s.min.min(x) },
            max: if s.count == 0 { x } else { s.max.max(x) },
            total: s.total + x,
        })
    }

    pub fn merge(&self, other: &Self) -> Self {
        match (self.count, other.count) {
            (0, _) => *other,
            (_, 0) => *self,
            _ => Self {
                count: self.count + other.count,
                min: self.min.min(other.min),
                max: self.max.max(other.max),
                total: self.total + other.total,
            },
        }
    }

    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.total as f64 / self.count as f64)
    }
}
`;

function libRs(): string {
  const mods = ['common', ...moduleNames].map((m) => `pub mod ${m};`).join('\n');
  const calls = moduleNames.map((m) => `        ${m}::demo(),`).join('\n');
  return `//! A generated multi-module library for the Shadowbox benchmark.

${mods}

/// Runs every module's demo and folds the results into one summary and fingerprint.
pub fn report() -> (common::Summary, u64) {
    let parts = [
${calls}
    ];
    parts.iter().fold((common::Summary::default(), 0), |(s, f), (ps, pf)| (s.merge(ps), f ^ pf))
}
`;
}

function integrationTests(): string {
  return `use shadow_bench::common::{Codec, Pair, Summary};
use shadow_bench::{inventory, ledger, money, report, search};

#[test]
fn the_report_covers_every_module() {
    let (summary, fingerprint) = report();
    assert!(summary.count > ${moduleNames.length * 20});
    assert_ne!(fingerprint, 0);
}

#[test]
fn stores_of_pairs_round_trip() {
    let mut store = ledger::LedgerStore::new();
    store.insert("a", Pair(1, 2), &["x"]);
    store.insert("b", Pair(-3, 4), &[]);
    let decoded = ledger::LedgerStore::<Pair>::decode_all(&store.encode_all()).unwrap();
    assert_eq!(decoded.fingerprint(), store.fingerprint());
}

#[test]
fn queries_agree_across_modules() {
    let mut a = inventory::InventoryStore::new();
    let mut b = search::SearchStore::new();
    for i in 0..20_i64 {
        a.insert(&format!("k{}", i % 5), i, &["t"]);
        b.insert(&format!("k{}", i % 5), i, &["t"]);
    }
    assert_eq!(a.query("key:K1 min:12").unwrap().len(), b.query("key:k1 min:12").unwrap().len());
}

#[test]
fn summaries_merge() {
    let s = Summary::of([3, 1, 2]).merge(&Summary::of([10]));
    assert_eq!((s.count, s.min, s.max, s.total), (4, 1, 10, 16));
    let mut text = String::new();
    Pair(7, 8).encode(&mut text);
    assert_eq!(Pair::decode(&text).unwrap(), Pair(7, 8));
    assert_eq!(money::moving_average(&[1, 2, 3, 4], 2), vec![1.5, 2.5, 3.5]);
}
`;
}

const cargoToml = `[package]
name = "shadow_bench"
version = "0.1.0"
edition = "2021"

[dependencies]
`;

function moduleFile(spec: ModuleSpec): string {
  return `src/${spec.name}.rs`;
}

function hypothesis(name: string, moduleIndex: number, variant: ModuleVariant): Hypothesis {
  const spec = specs[moduleIndex];
  if (spec === undefined) throw new Error(`no module ${moduleIndex}`);
  return oneFileHypothesis(name, moduleFile(spec), rustModule(spec, variant));
}

/** Generates the crate (about 11k lines, 32 modules, 68 tests) under `root/rust-crate`. */
export async function createRustCrate(root: string): Promise<BenchProject> {
  const dir = path.join(root, 'rust-crate');
  const files = new Map<string, string>([
    ['Cargo.toml', cargoToml],
    ['.gitignore', 'target/\n'],
    ['src/lib.rs', libRs()],
    ['src/common.rs', common],
    ['tests/integration.rs', integrationTests()],
  ]);
  for (const spec of specs) files.set(moduleFile(spec), rustModule(spec));
  const lines = await writeTree(dir, files);
  return {
    kind: 'cargo',
    dir,
    command: ['cargo', 'test', '--offline'],
    warmCommand: ['cargo', 'test', '--offline', '--no-run'],
    hypotheses: [
      hypothesis('checksum-loop', 3, 'checksum-loop'),
      hypothesis('top-n-unstable', 11, 'top-n-unstable'),
      hypothesis('normalize-bug', 19, 'normalize-bug'),
      hypothesis('checksum-loop-2', 27, 'checksum-loop'),
    ],
    passingHypotheses: [
      hypothesis('checksum-loop', 3, 'checksum-loop'),
      hypothesis('top-n-unstable', 11, 'top-n-unstable'),
      hypothesis('checksum-loop-19', 19, 'checksum-loop'),
      hypothesis('top-n-unstable-27', 27, 'top-n-unstable'),
    ],
    stats: { files: files.size, lines, tests: specs.length * 2 + 4 },
  };
}
