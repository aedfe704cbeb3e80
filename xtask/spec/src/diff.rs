//! A small line diff (longest common subsequence) for readable drift messages.

/// A unified-style diff of `old` and `new` with `context` lines around each change.
/// Returns an empty string when the texts are equal.
pub(crate) fn unified(old: &str, new: &str, context: usize) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let ops = line_ops(&a, &b);
    if ops.iter().all(|op| matches!(op, Op::Same(_))) {
        return String::new();
    }
    // Mark which ops to print: changes plus `context` lines either side.
    let keep: Vec<bool> = (0..ops.len())
        .map(|i| {
            let lo = i.saturating_sub(context);
            let hi = (i + context + 1).min(ops.len());
            ops[lo..hi].iter().any(|op| !matches!(op, Op::Same(_)))
        })
        .collect();
    let mut out = String::new();
    let (mut line_a, mut line_b) = (1usize, 1usize);
    let mut in_hunk = false;
    for (op, keep) in ops.iter().zip(keep) {
        if keep && !in_hunk {
            out.push_str(&format!("@@ -{line_a} +{line_b} @@\n"));
        }
        in_hunk = keep;
        match op {
            Op::Same(line) => {
                if keep {
                    out.push_str(&format!("  {line}\n"));
                }
                line_a += 1;
                line_b += 1;
            }
            Op::Removed(line) => {
                out.push_str(&format!("- {line}\n"));
                line_a += 1;
            }
            Op::Added(line) => {
                out.push_str(&format!("+ {line}\n"));
                line_b += 1;
            }
        }
    }
    out
}

#[derive(Debug, PartialEq, Eq)]
enum Op<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

fn line_ops<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Op<'a>> {
    // Common prefix and suffix first, so the quadratic table only covers the changed middle.
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops: Vec<Op<'a>> = a[..prefix].iter().map(|l| Op::Same(l)).collect();
    if ma.len().saturating_mul(mb.len()) > 25_000_000 {
        // Too large to align: show the whole middle as replaced.
        ops.extend(ma.iter().map(|l| Op::Removed(l)));
        ops.extend(mb.iter().map(|l| Op::Added(l)));
    } else {
        // lcs[i][j] = length of the LCS of ma[i..] and mb[j..].
        let width = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * width];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * width + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * width + j + 1] + 1
                } else {
                    lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() || j < mb.len() {
            if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
                ops.push(Op::Same(ma[i]));
                i += 1;
                j += 1;
            } else if i < ma.len()
                && (j == mb.len() || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])
            {
                ops.push(Op::Removed(ma[i]));
                i += 1;
            } else {
                ops.push(Op::Added(mb[j]));
                j += 1;
            }
        }
    }
    ops.extend(a[a.len() - suffix..].iter().map(|l| Op::Same(l)));
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("a\nb\n", "a\nb\n", 3), "");
    }

    #[test]
    fn changes_show_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n";
        assert_eq!(unified(old, new, 1), "@@ -4 +4 @@\n  4\n- 5\n+ five\n  6\n");
    }

    #[test]
    fn insertions_and_deletions() {
        assert_eq!(unified("a\nc\n", "a\nb\nc\n", 0), "@@ -2 +2 @@\n+ b\n");
        assert_eq!(unified("a\nb\nc\n", "a\nc\n", 0), "@@ -2 +2 @@\n- b\n");
    }
}
