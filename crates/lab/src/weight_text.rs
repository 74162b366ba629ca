//! The evaluation weights as the laboratory handles them: an array in a fixed
//! order, which the tuner perturbs one coordinate at a time, and a line of
//! eight comma-separated integers in that order (`100,6,40,12,150,20,60,0`),
//! which `tune` reads and writes and `match` reads in a player's `w=`.

use stella_ai::Weights;

/// How many weights there are.
pub const COUNT: usize = 8;

/// The weights' names, in the order of [`to_array`].
pub const NAMES: [&str; COUNT] = [
    "rows",
    "squares",
    "back",
    "lateral",
    "home_late",
    "jump",
    "tempo",
    "drive",
];

/// The weights as an array, in the order of [`NAMES`].
pub fn to_array(w: Weights) -> [i32; COUNT] {
    [
        w.rows,
        w.squares,
        w.back,
        w.lateral,
        w.home_late,
        w.jump,
        w.tempo,
        w.drive,
    ]
}

/// Weights from an array in the order of [`NAMES`].
pub fn from_array(a: [i32; COUNT]) -> Weights {
    Weights {
        rows: a[0],
        squares: a[1],
        back: a[2],
        lateral: a[3],
        home_late: a[4],
        jump: a[5],
        tempo: a[6],
        drive: a[7],
    }
}

/// The weights as one line of text: the integers of [`to_array`], joined by
/// commas.
pub fn format(w: Weights) -> String {
    let parts: Vec<String> = to_array(w).iter().map(|v| v.to_string()).collect();
    parts.join(",")
}

/// Weights from the text [`format`] writes; the error names what was wrong.
pub fn parse(s: &str) -> Result<Weights, String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != COUNT {
        return Err(format!(
            "weights need {COUNT} comma-separated integers ({}), got {}",
            NAMES.join(","),
            parts.len()
        ));
    }
    let mut a = [0i32; COUNT];
    for (i, p) in parts.iter().enumerate() {
        a[i] = p
            .trim()
            .parse()
            .map_err(|_| format!("weight {} is not an integer: {p:?}", NAMES[i]))?;
    }
    Ok(from_array(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_reads_back_as_the_same_weights() {
        let w = Weights::DEFAULT;
        assert_eq!(parse(&format(w)), Ok(w));
        assert_eq!(from_array(to_array(w)), w);
        let spaced = parse(" 100, 6,40,12,150,20,60,0").unwrap();
        assert_eq!((spaced.rows, spaced.tempo, spaced.drive), (100, 60, 0));
    }

    #[test]
    fn bad_text_names_what_is_wrong() {
        let short = parse("1,2,3").unwrap_err();
        assert!(
            short.contains("need 8") && short.contains("got 3"),
            "{short}"
        );
        let word = parse("1,2,3,4,5,six,7,8").unwrap_err();
        assert!(word.contains("jump") && word.contains("six"), "{word}");
    }
}
