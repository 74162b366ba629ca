//! Child processes of a test, killed when dropped so that a failing test leaves nothing.

use std::process::{Child, Command, ExitStatus};

/// A child process killed (SIGKILL) when dropped.
pub struct Proc(Option<Child>);

impl Proc {
    /// Spawns `command`; `what` names it in the failure message.
    pub fn spawn(command: &mut Command, what: &str) -> Proc {
        Proc(Some(
            command
                .spawn()
                .unwrap_or_else(|e| panic!("{what} starts: {e}")),
        ))
    }

    /// Kills the process (SIGKILL) and reaps it; nothing when it is already gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The exit status once the process has ended, `None` while it runs.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.0
            .as_mut()
            .and_then(|c| c.try_wait().expect("the process's status"))
    }

    /// The child itself, no longer killed on drop (to wait for its output).
    pub fn take(&mut self) -> Child {
        self.0.take().expect("a running child")
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}
