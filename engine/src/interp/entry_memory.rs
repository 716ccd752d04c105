//! The initial memory of a witness run whose entry takes pointers: each pointer parameter
//! gets a block of its own (separate from every other block, the caller's, contents chosen by
//! the run's input strategy) and points to its start. Any such memory is one a C caller can
//! build (`malloc` and stores), so a lasso or fault found from it is a real run of the entry.
//! It is a choice of the search only: a proof considers every argument.

use super::inputs::{InputRequest, InputSource};
use crate::ir::{Function, Op, Operand, Type, ValueId};
use crate::verdict::EntryBlock;

/// Element counts of the blocks, tried in rotation over the search's runs: a few elements
/// (room for small loops), one, none (every access at a computed index is out of bounds),
/// many; never fewer than the accesses at constant offsets need (`fixed_extent`).
const ELEMENT_COUNTS: [u64; 4] = [4, 1, 0, 16];

/// How a pointer parameter is first used in the entry: the size of the elements accessed
/// through it (a load, a store or an indexed address computation; 4 when nothing says) and
/// whether the elements are pointers (then the block holds null pointers: a made-up address
/// is no object a caller could hand over).
fn element_of(f: &Function, p: ValueId) -> (u64, bool) {
    let is_p = |o: &Operand| matches!(o, Operand::Local(v) if *v == p);
    for i in f.blocks.iter().flat_map(|b| &b.instrs) {
        match &i.op {
            Op::Load { ty, ptr, size } if is_p(ptr) && *size > 0 => return (*size, *ty == Type::Ptr),
            Op::Store { ty, ptr, size, .. } if is_p(ptr) && *size > 0 => return (*size, *ty == Type::Ptr),
            Op::PtrAdd { base, indices, .. } if is_p(base) => {
                if let Some(scale) = indices.first().map(|g| g.scale).filter(|s| (1..=8).contains(s)) {
                    return (scale as u64, false);
                }
            }
            _ => {}
        }
    }
    (4, false)
}

/// The bytes the entry accesses through `p` at constant offsets (`*p`, `p->field`): a block
/// of the search covers at least these, so that only accesses at computed indices can
/// leave it (a struct argument too small for its own fields is no interesting witness).
fn fixed_extent(f: &Function, p: ValueId) -> u64 {
    let instrs = || f.blocks.iter().flat_map(|b| &b.instrs);
    let accessed = |q: ValueId| {
        instrs()
            .filter_map(|i| match &i.op {
                Op::Load { ptr: Operand::Local(v), size, .. } | Op::Store { ptr: Operand::Local(v), size, .. } if *v == q => Some(*size),
                _ => None,
            })
            .max()
    };
    let direct = accessed(p).unwrap_or(0);
    let fields = instrs().filter_map(|i| match (&i.op, i.result) {
        (Op::PtrAdd { base: Operand::Local(b), offset, indices, .. }, Some(r)) if *b == p && indices.is_empty() && (0..=4096).contains(offset) => accessed(r).map(|size| *offset as u64 + size),
        _ => None,
    });
    fields.chain([direct]).max().unwrap_or(0)
}

/// The arguments of a run of `f` (`run`: the search's run number) and the blocks its pointer
/// parameters point to: integers and the blocks' elements come from `src`. `None` for a
/// parameter of another type (aggregates, floats), or for a pointer parameter of `main`
/// (its `argv` has a shape the C standard fixes, which made-up blocks would not have) or one
/// that is a Rust reference (its type promises more than a block of made-up size), or when
/// `src` has no value.
pub fn entry_arguments(f: &Function, run: usize, src: &mut dyn InputSource) -> Option<(Vec<i128>, Vec<EntryBlock>)> {
    let mut args = Vec::new();
    let mut blocks = Vec::new();
    for (index, (v, ty)) in f.params.iter().enumerate() {
        match ty {
            Type::Int(bits) => {
                let name = format!("param {}", f.value_name(*v));
                args.push(src.next_value(&InputRequest { name: &name, bits: *bits, unsigned: false })?);
            }
            Type::Ptr if f.name != "main" && f.param_attrs.get(index).is_none_or(|a| a.rust.is_none()) => {
                let (elem, pointers) = element_of(f, *v);
                let count = ELEMENT_COUNTS[run % ELEMENT_COUNTS.len()].max(fixed_extent(f, *v).div_ceil(elem));
                let param = f.value_name(*v);
                let name = format!("param {param}[]");
                let mut bytes = Vec::with_capacity((elem * count) as usize);
                for _ in 0..count {
                    let value = if pointers { 0 } else { src.next_value(&InputRequest { name: &name, bits: (elem * 8) as u32, unsigned: false })? };
                    bytes.extend((0..elem).map(|k| (value >> (8 * k)) as u8));
                }
                blocks.push(EntryBlock { param, index, size: elem * count, offset: 0, bytes, element_size: elem });
                // the address is the interpreter's, set when the block is allocated
                args.push(0);
            }
            _ => return None,
        }
    }
    Some((args, blocks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{Strategy, StrategyInputs};

    fn function(src: &str) -> Function {
        let m = crate::frontend::load_source(src, crate::driver::InputKind::C).expect("compiles");
        let id = m.function_by_name("f").expect("f");
        m.function(id).clone()
    }

    #[test]
    fn pointer_parameters_get_blocks_of_their_elements() {
        let f = function("int f(short *a, int n) { return a[n]; }");
        let (args, blocks) = entry_arguments(&f, 0, &mut StrategyInputs::new(Strategy::Constant(-2), 0)).expect("arguments");
        assert_eq!(args, vec![0, -2]);
        assert_eq!(blocks.len(), 1);
        let b = &blocks[0];
        assert_eq!((b.param.as_str(), b.index, b.size, b.offset), ("a", 0, 8, 0));
        assert_eq!(b.bytes, vec![0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff]);
        assert_eq!(b.elements(), Some(vec![-2, -2, -2, -2]));
        // the next runs try one element, none, many
        let sizes: Vec<u64> = (1..4).map(|r| entry_arguments(&f, r, &mut StrategyInputs::new(Strategy::Constant(1), 0)).unwrap().1[0].size).collect();
        assert_eq!(sizes, vec![2, 0, 32]);
    }

    #[test]
    fn blocks_cover_the_fields_accessed_at_constant_offsets() {
        let f = function("struct s { int a; long b; };\nlong f(struct s *p) { return p->a + p->b; }");
        let sizes: Vec<u64> = (0..4).map(|r| entry_arguments(&f, r, &mut StrategyInputs::new(Strategy::Constant(0), 0)).unwrap().1[0].size).collect();
        // `p->b` ends at byte 16: the 1- and 0-element blocks grow to 4 elements of 4 bytes
        assert_eq!(sizes, vec![16, 16, 16, 64]);
    }

    #[test]
    fn pointer_elements_are_null_and_main_gets_no_blocks() {
        let f = function("int f(int **p) { return **p; }");
        let (_, blocks) = entry_arguments(&f, 0, &mut StrategyInputs::new(Strategy::Constant(7), 0)).expect("arguments");
        assert_eq!((blocks[0].size, blocks[0].bytes.iter().all(|b| *b == 0)), (32, true));
        let m = crate::frontend::load_source("int main(int argc, char **argv) { return argc; }", crate::driver::InputKind::C).expect("compiles");
        let main = m.function(m.function_by_name("main").expect("main"));
        assert!(entry_arguments(main, 0, &mut StrategyInputs::new(Strategy::Constant(1), 0)).is_none());
    }
}
