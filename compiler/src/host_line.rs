//! The line of the host string the next `${…}` sits on, as the Windsor
//! text rule needs it. Kept up to date part by part, so compiling a
//! template of n parts never rescans the text before each one.

/// What precedes the next `${…}` in its host string.
#[derive(Debug, Default)]
pub(crate) struct HostLine {
    /// The host string has had a newline.
    multiline: bool,
    /// Leading spaces of the current line.
    spaces: usize,
    /// The current line has something after its leading spaces.
    started: bool,
}

impl HostLine {
    /// Host text follows.
    pub fn push_text(&mut self, text: &str) {
        let line = match text.rfind('\n') {
            Some(i) => {
                *self = HostLine {
                    multiline: true,
                    ..HostLine::default()
                };
                &text[i + 1..]
            }
            None => text,
        };
        if !self.started {
            let rest = line.trim_start_matches(' ');
            self.spaces += line.len() - rest.len();
            self.started = !rest.is_empty();
        }
    }

    /// A `${…}` result follows: its text is only known at run time, so it
    /// counts as something that is not a space.
    pub fn push_value(&mut self) {
        self.started = true;
    }

    /// The current line's leading spaces; none on the host's first line.
    pub fn indent(&self) -> usize {
        if self.multiline { self.spaces } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule as first written: the last line of everything before.
    fn rescanned(before: &str) -> usize {
        let line = before.rsplit('\n').next().unwrap_or("");
        if before.contains('\n') {
            line.len() - line.trim_start_matches(' ').len()
        } else {
            0
        }
    }

    #[test]
    fn agrees_with_rescanning_the_text_before() {
        let pieces = ["a", "  ", "\n", "  x", "\n    ", " ", "\n\n", "b\n  ", "", "\t "];
        // Every sequence of up to four pieces, with a value between some.
        let mut count = 0;
        for n in 0..pieces.len().pow(4) {
            let mut line = HostLine::default();
            let mut before = String::new();
            let mut k = n;
            for step in 0..4 {
                let piece = pieces[k % pieces.len()];
                k /= pieces.len();
                line.push_text(piece);
                before.push_str(piece);
                if (n + step) % 3 == 0 {
                    line.push_value();
                    before.push('x');
                }
                assert_eq!(line.indent(), rescanned(&before), "{before:?}");
                count += 1;
            }
        }
        assert!(count > 1000);
    }
}
