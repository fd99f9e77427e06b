//! Started by the harness, a subgraph must not outlive it: the kernel sends SIGTERM when the
//! parent dies, and a once-a-second look at the parent pid (as the Node subgraphs do) covers the
//! parent having died before that was armed.
use std::time::Duration;

pub fn exit_with_parent() {
    // SAFETY: plain syscalls with no pointers.
    let parent = unsafe { libc::getppid() };
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) };
    std::thread::spawn(move || loop {
        if unsafe { libc::getppid() } != parent {
            std::process::exit(0);
        }
        std::thread::sleep(Duration::from_secs(1));
    });
}
