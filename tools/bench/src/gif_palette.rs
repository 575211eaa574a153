//! The fixed 256-colour palette of `--render`'s GIFs.
//!
//! A debug-draw frame is a handful of flat colours over one background, anti-aliased: every
//! pixel is, to within rounding, a colour `c` blended over the background at some coverage
//! `α` (shapes are filled at half opacity, edges take any coverage). So the palette is the
//! background plus, for each drawing colour, `LEVELS` evenly spaced blends
//! `bg + (c − bg)·k/LEVELS`, k = 1..LEVELS; each pixel takes its nearest entry (squared RGB
//! distance, the lower index on a tie), remembered per exact colour. One global palette for
//! the whole animation means no per-frame quantisation noise, so consecutive frames differ
//! only where something moved, and the LZW coder packs them far better than frames quantised
//! one by one.

use std::collections::HashMap;

/// Blend levels per drawing colour.
pub const LEVELS: u32 = 15;

/// The palette and the nearest-entry memo.
pub struct Palette {
    entries: Vec<[u8; 3]>,
    nearest: HashMap<[u8; 3], u8>,
}

impl Palette {
    /// The background and `LEVELS` blends of each colour in `colors` (`0xRRGGBB`), the
    /// duplicates dropped; `None` if that makes more than 256 entries.
    pub fn new(background: u32, colors: &[u32]) -> Option<Palette> {
        let bg = rgb(background);
        let mut entries = vec![bg];
        for &color in colors {
            let c = rgb(color);
            for k in 1..=LEVELS {
                let blend = |i: usize| {
                    let (b, c) = (f32::from(bg[i]), f32::from(c[i]));
                    (b + (c - b) * k as f32 / LEVELS as f32).round() as u8
                };
                let entry = [blend(0), blend(1), blend(2)];
                if !entries.contains(&entry) {
                    entries.push(entry);
                }
            }
        }
        (entries.len() <= 256).then(|| Palette {
            entries,
            nearest: HashMap::new(),
        })
    }

    /// The palette as the GIF encoder wants it: `r, g, b` per entry.
    pub fn bytes(&self) -> Vec<u8> {
        self.entries.iter().flatten().copied().collect()
    }

    /// The number of entries.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The index of the entry nearest `color`.
    pub fn index(&mut self, color: [u8; 3]) -> u8 {
        if let Some(&index) = self.nearest.get(&color) {
            return index;
        }
        let distance = |entry: &[u8; 3]| -> u32 {
            (0..3)
                .map(|i| u32::from(entry[i].abs_diff(color[i])).pow(2))
                .sum()
        };
        let (index, _) = self
            .entries
            .iter()
            .enumerate()
            .min_by_key(|&(i, entry)| (distance(entry), i))
            .unwrap_or((0, &[0; 3]));
        let index = index as u8;
        self.nearest.insert(color, index);
        index
    }

    /// The indices of an opaque RGBA image's pixels.
    pub fn indices(&mut self, rgba: &[u8]) -> Vec<u8> {
        rgba.chunks_exact(4)
            .map(|p| self.index([p[0], p[1], p[2]]))
            .collect()
    }
}

fn rgb(color: u32) -> [u8; 3] {
    [(color >> 16) as u8, (color >> 8) as u8, color as u8]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_colours_and_blends_find_their_entries() {
        let mut palette = Palette::new(0x000000, &[0xFF0000, 0x00FF00]).unwrap();
        assert_eq!(palette.len(), 1 + 2 * LEVELS as usize);
        assert_eq!(palette.bytes().len(), 3 * palette.len());
        assert_eq!(palette.index([0, 0, 0]), 0);
        // Full red is the last of red's blends; green's follow.
        assert_eq!(palette.index([255, 0, 0]), LEVELS as u8);
        assert_eq!(palette.index([0, 255, 0]), 2 * LEVELS as u8);
        // Half-covered red (128) lies between levels 7 (119) and 8 (136): 8 is nearer.
        assert_eq!(palette.index([128, 0, 0]), 8);
        assert_eq!(palette.indices(&[255, 0, 0, 255, 0, 0, 0, 255]), [15, 0]);
    }

    #[test]
    fn too_many_colours_are_refused() {
        // Twenty colours of different hue make 297 distinct entries.
        let colors: Vec<u32> = (0..20)
            .map(|i| ((i * 12 + 15) << 16) | ((255 - i * 12) << 8) | 0x80)
            .collect();
        assert!(Palette::new(0, &colors).is_none());
        assert!(Palette::new(0, &colors[..16]).is_some(), "16 × 15 + 1 fit");
    }
}
