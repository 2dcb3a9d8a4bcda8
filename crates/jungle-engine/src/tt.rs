//! The transposition table: one entry per bucket, replaced when the new search is deeper or
//! the slot belongs to another position.

use jungle_rules::{Move, Square};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
pub struct Entry {
    pub key: u64,
    pub best: u16,
    pub score: i32,
    pub depth: i8,
    pub bound: Bound,
}

pub struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

pub fn pack(m: Move) -> u16 {
    (m.from.index() as u16) << 8 | m.to.index() as u16
}

pub fn unpack(code: u16) -> Option<Move> {
    let from = Square::new((code >> 8) as u8)?;
    let to = Square::new((code & 0xff) as u8)?;
    Some(Move::new(from, to))
}

impl Table {
    /// A table of about `megabytes` MiB (rounded down to a power of two entries).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let count = (bytes / std::mem::size_of::<Option<Entry>>()).next_power_of_two() / 2;
        Table {
            entries: vec![None; count.max(1024)],
            mask: count.max(1024) - 1,
        }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        match slot {
            Some(old)
                if old.key == entry.key
                    && old.depth > entry.depth
                    && entry.bound != Bound::Exact => {}
            _ => *slot = Some(entry),
        }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }
}
