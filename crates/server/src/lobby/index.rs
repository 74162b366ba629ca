//! Which tables concern each user (created by them, or with them in a seat), so that
//! counting what one user holds looks at that user's tables instead of every listed
//! table.

use std::collections::{HashMap, HashSet};

/// Tables by user and users by table; every link is kept in both.
#[derive(Debug, Default)]
pub(super) struct UserTables {
    by_user: HashMap<String, HashSet<String>>,
    by_table: HashMap<String, Vec<String>>,
}

impl UserTables {
    /// Links `table` to exactly `users` (none forgets the table).
    pub(super) fn set<'a>(&mut self, table: &str, users: impl IntoIterator<Item = &'a str>) {
        if let Some(old) = self.by_table.remove(table) {
            for user in old {
                if let Some(tables) = self.by_user.get_mut(&user) {
                    tables.remove(table);
                    if tables.is_empty() {
                        self.by_user.remove(&user);
                    }
                }
            }
        }
        let mut linked: Vec<String> = Vec::new();
        for user in users {
            if linked.iter().any(|u| u == user) {
                continue;
            }
            self.by_user
                .entry(user.to_owned())
                .or_default()
                .insert(table.to_owned());
            linked.push(user.to_owned());
        }
        if !linked.is_empty() {
            self.by_table.insert(table.to_owned(), linked);
        }
    }

    /// The tables linked to `user`.
    pub(super) fn tables(&self, user: &str) -> impl Iterator<Item = &str> {
        self.by_user
            .get(user)
            .into_iter()
            .flat_map(|tables| tables.iter().map(String::as_str))
    }

    /// How many tables are linked to anyone.
    #[cfg(test)]
    fn table_count(&self) -> usize {
        self.by_table.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(index: &UserTables, user: &str) -> Vec<String> {
        let mut t: Vec<String> = index.tables(user).map(str::to_owned).collect();
        t.sort();
        t
    }

    #[test]
    fn links_follow_the_latest_set() {
        let mut index = UserTables::default();
        index.set("t1", ["ann", "bob"]);
        index.set("t2", ["ann"]);
        assert_eq!(sorted(&index, "ann"), ["t1", "t2"]);
        assert_eq!(sorted(&index, "bob"), ["t1"]);
        index.set("t1", ["bob", "cy", "bob"]);
        assert_eq!(sorted(&index, "ann"), ["t2"]);
        assert_eq!(sorted(&index, "bob"), ["t1"]);
        assert_eq!(sorted(&index, "cy"), ["t1"]);
    }

    #[test]
    fn a_table_linked_to_nobody_is_forgotten_entirely() {
        let mut index = UserTables::default();
        index.set("t1", ["ann"]);
        index.set("t1", []);
        assert!(sorted(&index, "ann").is_empty());
        assert_eq!(index.table_count(), 0);
        assert!(index.by_user.is_empty(), "no empty sets are left behind");
    }
}
