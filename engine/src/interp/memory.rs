//! Byte-addressed memory: allocations with a concrete base address, size, kind and liveness.
//!
//! The allocator is deterministic: addresses grow from `FIRST_ADDRESS`, every block is
//! 16-byte aligned and followed by a `GAP` of never-allocated bytes, so off-by-one (and
//! most larger) overflows land in unallocated memory instead of a neighbour. Addresses are
//! never reused: a freed block (or a dead stack frame's block) keeps its metadata, so a
//! later access through a dangling pointer is reported as `use-after-free`.

use super::fault::{kind, Fault};
use std::collections::BTreeMap;

/// Accesses below this address are reported as null dereferences (NULL plus a field offset).
pub const NULL_PAGE: u64 = 4096;
/// First address the allocator hands out.
pub const FIRST_ADDRESS: u64 = 0x10000;
/// Unallocated bytes between two blocks.
pub const GAP: u64 = 4096;
/// Addresses of functions (for function pointers) live here; they are not readable memory.
pub const FUNCTION_BASE: u64 = 1 << 44;

/// Where an allocation comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AllocKind {
    Stack,
    Heap,
    Global,
}

/// One byte of memory.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// Never written: reading it yields an arbitrary value from the input source.
    Uninit,
    Byte(u8),
    /// Part of a stored poison value.
    Poison,
    /// Content the interpreter does not know (e.g. an external global): reading is unsupported.
    Unknown,
}

/// A block of memory.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Allocation {
    pub size: u64,
    pub kind: AllocKind,
    pub live: bool,
    pub read_only: bool,
    /// Contents while live (emptied when the block dies).
    pub cells: Vec<Cell>,
}

/// The whole memory: allocations by base address plus the allocator's next free address.
///
/// `digest` is an incrementally maintained hash of the contents (a wrapping sum of one mix
/// per block header and per cell), so the lasso detector can hash a state without walking
/// memory; `generation` changes on every mutation. Equality ignores both (they are functions
/// of the contents, or bookkeeping), and equality is always decided on the contents.
#[derive(Clone, Debug)]
pub struct Memory {
    blocks: BTreeMap<u64, Allocation>,
    pub next_address: u64,
    /// Limit on the size of one allocation (bigger requests stop with `Unsupported`).
    pub max_alloc_bytes: u64,
    digest: u64,
    generation: u64,
    /// Source names of blocks by base address (`a` for `int a[4]`, a global's name), for the
    /// messages of violations only: not part of the state (equality and digest ignore it).
    names: BTreeMap<u64, String>,
    /// Allocation sites of heap blocks by base address (`` `malloc` at f.c:12 ``), like
    /// `names` for messages only.
    sites: BTreeMap<u64, String>,
}

impl PartialEq for Memory {
    fn eq(&self, other: &Memory) -> bool {
        self.digest == other.digest && self.next_address == other.next_address && self.blocks == other.blocks
    }
}

impl Eq for Memory {}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn cell_mix(addr: u64, c: Cell) -> u64 {
    let code = match c {
        Cell::Byte(b) => b as u64,
        Cell::Uninit => 0x100,
        Cell::Poison => 0x101,
        Cell::Unknown => 0x102,
    };
    mix(addr.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ code)
}

fn header_mix(base: u64, a: &Allocation) -> u64 {
    let kind = match a.kind {
        AllocKind::Stack => 1,
        AllocKind::Heap => 2,
        AllocKind::Global => 3,
    };
    mix(base ^ mix(a.size ^ (kind << 60) ^ ((a.live as u64) << 58) ^ ((a.read_only as u64) << 57)) ^ 0xA5A5_5A5A)
}

fn block_mix(base: u64, a: &Allocation) -> u64 {
    a.cells
        .iter()
        .enumerate()
        .fold(header_mix(base, a), |acc, (i, c)| acc.wrapping_add(cell_mix(base + i as u64, *c)))
}

/// Whether an access reads or writes (for the violation kind).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    Read,
    Write,
}

impl Memory {
    pub fn new(max_alloc_bytes: u64) -> Memory {
        Memory { blocks: BTreeMap::new(), next_address: FIRST_ADDRESS, max_alloc_bytes, digest: 0, generation: 0, names: BTreeMap::new(), sites: BTreeMap::new() }
    }

    /// Hash of the contents (equal memories have equal digests).
    pub fn digest(&self) -> u64 {
        self.digest ^ mix(self.next_address)
    }

    /// Changes whenever the memory changes (same value ⇒ same contents, within one run).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// All blocks by base address.
    pub fn blocks(&self) -> &BTreeMap<u64, Allocation> {
        &self.blocks
    }

    /// Allocates `size` bytes filled with `fill`; returns the base address.
    pub fn allocate(&mut self, size: u64, kind: AllocKind, fill: Cell) -> Result<u64, Fault> {
        if size > self.max_alloc_bytes {
            return Err(Fault::unsupported(format!("allocation of {size} bytes exceeds the interpreter's limit")));
        }
        self.allocate_cells(kind, vec![fill; size as usize], false)
    }

    /// Allocates a block with the given contents.
    pub fn allocate_cells(&mut self, kind: AllocKind, cells: Vec<Cell>, read_only: bool) -> Result<u64, Fault> {
        let size = cells.len() as u64;
        let base = self.next_address;
        self.next_address = (base + size + GAP + 15) & !15;
        let block = Allocation { size, kind, live: true, read_only, cells };
        self.digest = self.digest.wrapping_add(block_mix(base, &block));
        self.generation += 1;
        self.blocks.insert(base, block);
        Ok(base)
    }

    /// Marks the block at `base` dead (stack frame popped or block freed).
    pub fn kill(&mut self, base: u64) {
        if let Some(a) = self.blocks.get_mut(&base) {
            self.digest = self.digest.wrapping_sub(block_mix(base, a));
            a.live = false;
            a.cells = Vec::new();
            self.digest = self.digest.wrapping_add(block_mix(base, a));
            self.generation += 1;
        }
    }

    /// Gives the block at `base` its source name (shown in violation messages).
    pub fn name_block(&mut self, base: u64, name: String) {
        self.names.insert(base, name);
    }

    /// Records where the heap block at `base` was allocated (`` `malloc` at f.c:12 ``), shown
    /// in violation messages beside its name.
    pub fn note_site(&mut self, base: u64, site: String) {
        self.sites.insert(base, site);
    }

    /// ` (allocated by `malloc` at f.c:12)` for a block with a known site, else nothing.
    fn site_text(&self, base: u64) -> String {
        self.sites.get(&base).map(|s| format!(" (allocated by {s})")).unwrap_or_default()
    }

    /// The source terms of an access of `len` bytes at `offset` into the block at `base`:
    /// `` `a[4]` of the 4-element array `a` `` (elements of the access's size) when the block
    /// has a name and the access is element-aligned, else the byte offset into the object.
    fn object_text(&self, base: u64, size: u64, offset: i128, len: u64) -> String {
        let site = self.site_text(base);
        let Some(name) = self.names.get(&base) else {
            return if site.is_empty() { site } else { format!(", i.e. byte {offset} of the {size}-byte heap block{site}") };
        };
        let text = if len > 0 && size > len && size.is_multiple_of(len) && offset.rem_euclid(len as i128) == 0 {
            let index = offset.div_euclid(len as i128);
            format!(", i.e. `{name}[{index}]` of the {}-element array `{name}` ({len}-byte elements, as accessed)", size / len)
        } else {
            format!(", i.e. byte {offset} of the {size}-byte object `{name}`")
        };
        format!("{text}{site}")
    }

    /// `: the object `p` (allocated by …)` for the block at `base`, as far as it is known.
    fn block_text(&self, base: u64) -> String {
        let name = self.names.get(&base).map(|n| format!(": the object `{n}`")).unwrap_or_default();
        let site = self.site_text(base);
        if name.is_empty() && !site.is_empty() {
            format!(":{site}")
        } else {
            format!("{name}{site}")
        }
    }

    /// Checks that `[addr, addr+len)` lies inside one live allocation; returns its base.
    pub fn check(&self, addr: u64, len: u64, access: Access) -> Result<u64, Fault> {
        let invalid = if access == Access::Read { kind::INVALID_READ } else { kind::INVALID_WRITE };
        let verb = if access == Access::Read { "read" } else { "write" };
        if addr < NULL_PAGE {
            return Err(Fault::Violation {
                kind: kind::NULL_DEREFERENCE,
                message: format!("{verb} of {len} bytes at address {addr:#x} (null pointer)"),
            });
        }
        let Some((&base, block)) = self.blocks.range(..=addr).next_back() else {
            return Err(Fault::Violation { kind: invalid, message: format!("{verb} of {len} bytes at unallocated address {addr:#x}") });
        };
        let inside_start = addr < base + block.size;
        if inside_start && !block.live {
            return Err(Fault::Violation {
                kind: kind::USE_AFTER_FREE,
                message: format!(
                    "{verb} of {len} bytes at {addr:#x} inside a dead {:?} block (base {base:#x}){}",
                    block.kind,
                    self.block_text(base)
                ),
            });
        }
        if !inside_start || addr.checked_add(len).is_none_or(|end| end > base + block.size) {
            return Err(Fault::Violation {
                kind: invalid,
                message: format!(
                    "{verb} of {len} bytes at {addr:#x} outside the {}-byte {:?} block at {base:#x} (offset {}){}",
                    block.size,
                    block.kind,
                    addr as i128 - base as i128,
                    self.object_text(base, block.size, addr as i128 - base as i128, len)
                ),
            });
        }
        if access == Access::Write && block.read_only {
            return Err(Fault::Violation { kind: invalid, message: format!("write at {addr:#x} into a constant global") });
        }
        Ok(base)
    }

    /// Reads `len` cells (after `check`).
    pub fn read(&self, addr: u64, len: u64) -> Result<Vec<Cell>, Fault> {
        let base = self.check(addr, len, Access::Read)?;
        let off = (addr - base) as usize;
        Ok(self.blocks[&base].cells[off..off + len as usize].to_vec())
    }

    /// Writes cells (after `check`).
    pub fn write(&mut self, addr: u64, cells: &[Cell]) -> Result<(), Fault> {
        let base = self.check(addr, cells.len() as u64, Access::Write)?;
        let off = (addr - base) as usize;
        let block = self.blocks.get_mut(&base).ok_or_else(|| Fault::unsupported("memory block vanished"))?;
        let mut digest = self.digest;
        for (i, (old, new)) in block.cells[off..off + cells.len()].iter_mut().zip(cells).enumerate() {
            let addr = addr + i as u64;
            digest = digest.wrapping_sub(cell_mix(addr, *old)).wrapping_add(cell_mix(addr, *new));
            *old = *new;
        }
        self.digest = digest;
        self.generation += 1;
        Ok(())
    }

    /// Replaces the `Uninit` cells of `[addr, addr+len)` by the corresponding `cells`
    /// (the fixed arbitrary value a read chose); other cells are left alone. Allowed in
    /// read-only blocks: it records a choice, not a write of the program.
    pub fn settle_uninit(&mut self, addr: u64, cells: &[Cell]) -> Result<(), Fault> {
        let base = self.check(addr, cells.len() as u64, Access::Read)?;
        let off = (addr - base) as usize;
        let block = self.blocks.get_mut(&base).ok_or_else(|| Fault::unsupported("memory block vanished"))?;
        let mut digest = self.digest;
        for (i, (old, new)) in block.cells[off..off + cells.len()].iter_mut().zip(cells).enumerate() {
            if *old == Cell::Uninit {
                let a = addr + i as u64;
                digest = digest.wrapping_sub(cell_mix(a, *old)).wrapping_add(cell_mix(a, *new));
                *old = *new;
            }
        }
        self.digest = digest;
        self.generation += 1;
        Ok(())
    }

    /// `free(addr)` for a non-null `addr`.
    pub fn free(&mut self, addr: u64) -> Result<(), Fault> {
        match self.blocks.get(&addr) {
            Some(b) if b.kind == AllocKind::Heap && b.live => {
                self.kill(addr);
                Ok(())
            }
            Some(b) if b.kind == AllocKind::Heap => {
                Err(Fault::Violation { kind: kind::DOUBLE_FREE, message: format!("free of already freed block {addr:#x}{}", self.block_text(addr)) })
            }
            Some(b) => Err(Fault::Violation {
                kind: kind::INVALID_FREE,
                message: format!("free of {addr:#x}, a {:?} block, not heap memory", b.kind),
            }),
            None => Err(Fault::Violation {
                kind: kind::INVALID_FREE,
                message: format!("free of {addr:#x}, which is not the start of an allocated block"),
            }),
        }
    }

    /// The live heap block starting at `addr`, if any.
    pub fn live_heap_block(&self, addr: u64) -> Option<&Allocation> {
        self.blocks.get(&addr).filter(|b| b.kind == AllocKind::Heap && b.live)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_separated_and_checked() {
        let mut m = Memory::new(1 << 20);
        let a = m.allocate(4, AllocKind::Heap, Cell::Uninit).unwrap();
        let b = m.allocate(4, AllocKind::Heap, Cell::Uninit).unwrap();
        assert!(b >= a + 4 + GAP);
        assert!(m.check(a, 4, Access::Read).is_ok());
        assert!(matches!(m.check(a + 1, 4, Access::Read), Err(Fault::Violation { kind: kind::INVALID_READ, .. })));
        assert!(matches!(m.check(a + 4, 1, Access::Write), Err(Fault::Violation { kind: kind::INVALID_WRITE, .. })));
        assert!(matches!(m.check(8, 4, Access::Read), Err(Fault::Violation { kind: kind::NULL_DEREFERENCE, .. })));
        let d = m.digest();
        m.write(a, &[Cell::Byte(1)]).unwrap();
        assert_ne!(m.digest(), d);
        m.write(a, &[Cell::Uninit]).unwrap();
        assert_eq!(m.digest(), d);
        m.free(a).unwrap();
        assert!(matches!(m.check(a, 4, Access::Read), Err(Fault::Violation { kind: kind::USE_AFTER_FREE, .. })));
        assert!(matches!(m.free(a), Err(Fault::Violation { kind: kind::DOUBLE_FREE, .. })));
        assert!(matches!(m.free(b + 1), Err(Fault::Violation { kind: kind::INVALID_FREE, .. })));
    }

    fn message(r: Result<u64, Fault>) -> String {
        match r {
            Err(Fault::Violation { message, .. }) => message,
            other => panic!("no violation: {other:?}"),
        }
    }

    #[test]
    fn violations_name_the_source_object_and_index() {
        let mut m = Memory::new(1 << 20);
        let a = m.allocate(16, AllocKind::Stack, Cell::Uninit).unwrap();
        let unnamed = m.allocate(16, AllocKind::Stack, Cell::Uninit).unwrap();
        let before = m.clone();
        m.name_block(a, "buf".into());
        assert_eq!(m, before, "a name is not part of the state");
        assert!(message(m.check(a + 16, 4, Access::Write)).ends_with("(offset 16), i.e. `buf[4]` of the 4-element array `buf` (4-byte elements, as accessed)"));
        assert!(message(m.check(a + 14, 4, Access::Read)).ends_with("i.e. byte 14 of the 16-byte object `buf`"));
        assert!(message(m.check(unnamed + 16, 4, Access::Read)).ends_with("(offset 16)"));
    }
}
