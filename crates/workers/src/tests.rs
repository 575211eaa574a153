use super::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Waits up to ten seconds for `flag`; false if it never rose.
fn wait_for(flag: &AtomicBool) -> bool {
    let start = Instant::now();
    while !flag.load(Ordering::Acquire) {
        if start.elapsed() > Duration::from_secs(10) {
            return false;
        }
        std::thread::yield_now();
    }
    true
}

#[test]
fn map_returns_every_result_in_index_order_for_any_count() {
    for count in 1..=4 {
        let workers = Workers::new(count).unwrap();
        let squares = workers.install(|| map(1000, |i| i * i));
        assert_eq!(squares, (0..1000).map(|i| i * i).collect::<Vec<_>>());
        assert_eq!(workers.install(current_count), count);
    }
    assert_eq!(
        current_count(),
        1,
        "outside install the thread has no workers"
    );
}

#[test]
fn every_task_runs_exactly_once() {
    let workers = Workers::new(3).unwrap();
    let runs: Vec<AtomicUsize> = (0..5000).map(|_| AtomicUsize::new(0)).collect();
    workers.install(|| for_each(runs.len(), |i| _ = runs[i].fetch_add(1, Ordering::Relaxed)));
    assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1));
}

#[test]
fn every_task_runs_once_for_any_worker_count_and_job_length() {
    // Up to six workers: more than `MAX_SEGMENTS`, so some threads share a home segment, and
    // lengths shorter than the segment count leave some segments empty.
    for count in 1..=6 {
        let workers = Workers::new(count).unwrap();
        for len in [0, 1, 2, 3, 4, 5, 7, 64, 1001] {
            let runs: Vec<AtomicUsize> = (0..len).map(|_| AtomicUsize::new(0)).collect();
            workers.install(|| {
                for_each(len, |i| {
                    // Uneven tasks, so that threads run dry at different times and steal.
                    if i % 7 == 0 {
                        std::thread::yield_now();
                    }
                    runs[i].fetch_add(1, Ordering::Relaxed);
                })
            });
            let once = runs.iter().all(|r| r.load(Ordering::Relaxed) == 1);
            assert!(
                once,
                "{count} workers, {len} tasks: not every task ran once"
            );
        }
    }
}

#[test]
fn a_helper_runs_its_half_front_first_then_steals_from_the_back_of_the_other() {
    // Two workers, eight tasks: the caller's segment is tasks 0–3, the helper's 4–7. The
    // caller claims task 0 and holds it until every other task has run, so the helper runs
    // its own segment from the front and then takes the caller's from the back. Tasks 4–7
    // wait for task 0 to start, so the helper cannot reach task 0 before the caller does.
    let workers = Workers::new(2).unwrap();
    let first_started = AtomicBool::new(false);
    let others_done = AtomicUsize::new(0);
    let helper_order = std::sync::Mutex::new(Vec::new());
    let caller = std::thread::current().id();
    workers.install(|| {
        for_each(8, |i| {
            if i == 0 {
                first_started.store(true, Ordering::Release);
                let start = Instant::now();
                while others_done.load(Ordering::Acquire) < 7 {
                    assert!(start.elapsed() < Duration::from_secs(10), "no helper came");
                    std::thread::yield_now();
                }
                return;
            }
            assert_ne!(
                std::thread::current().id(),
                caller,
                "task {i} ran on the caller"
            );
            if i >= 4 {
                assert!(wait_for(&first_started), "the caller never started task 0");
            }
            lock(&helper_order).push(i);
            others_done.fetch_add(1, Ordering::Release);
        })
    });
    assert_eq!(*lock(&helper_order), [4, 5, 6, 7, 3, 2, 1]);
}

#[test]
fn a_helper_takes_tasks_while_the_caller_is_busy() {
    // Task 0 runs on the caller (it claims first, after `here`) and waits for task 1 to
    // start: only a helper can start it.
    let workers = Workers::new(2).unwrap();
    let second_started = AtomicBool::new(false);
    let caller = std::thread::current().id();
    let threads = workers.install(|| {
        map(2, |i| {
            if i == 1 {
                second_started.store(true, Ordering::Release);
            } else {
                assert!(wait_for(&second_started), "no helper took task 1");
            }
            std::thread::current().id()
        })
    });
    assert_eq!(threads[0], caller);
    assert_ne!(threads[1], caller);
}

#[test]
fn sleeping_helpers_wake_for_a_new_job() {
    let workers = Workers::new(2).unwrap();
    for _ in 0..3 {
        // Long enough for the helper to pass its spin and yields and fall asleep.
        std::thread::sleep(SPIN_TIME * 20);
        let b_started = AtomicBool::new(false);
        workers.install(|| {
            join(
                || assert!(wait_for(&b_started), "the sleeping helper never woke"),
                || b_started.store(true, Ordering::Release),
            )
        });
    }
}

#[test]
fn nested_joins_and_loops_give_the_serial_results() {
    fn sum(values: &[u64]) -> u64 {
        if values.len() < 64 {
            return values.iter().sum();
        }
        let (left, right) = values.split_at(values.len() / 2);
        let (a, b) = join(|| sum(left), || sum(right));
        let c: u64 = map(4, |i| left.iter().skip(i).step_by(4).sum::<u64>())
            .iter()
            .sum();
        assert_eq!(c, a);
        a + b
    }
    let values: Vec<u64> = (0..20_000).map(|v| v * 7 % 1001).collect();
    let expected: u64 = values.iter().sum();
    for count in [1, 2, 4] {
        let workers = Workers::new(count).unwrap();
        assert_eq!(
            workers.install(|| sum(&values)),
            expected,
            "{count} workers"
        );
    }
    assert_eq!(sum(&values), expected, "outside any workers");
}

#[test]
fn for_each_mut_gives_each_task_its_own_item() {
    let workers = Workers::new(2).unwrap();
    let mut items: Vec<Vec<usize>> = vec![Vec::new(); 300];
    workers.install(|| for_each_mut(&mut items, |i, item| item.extend([i, 2 * i])));
    assert!(
        items
            .iter()
            .enumerate()
            .all(|(i, item)| item == &[i, 2 * i])
    );
}

#[test]
fn extend_in_pieces_closes_the_pieces_up_in_item_order() {
    // Items with room for 0 to 300 elements, each pushing about two thirds of what it has
    // room for, after what `out` already holds: every piece but the first is moved.
    let mut items: Vec<(u32, usize)> = (0..40u32).map(|i| (i, (i % 7 * 50) as usize)).collect();
    let pushed = |&(i, room): &(u32, usize)| (0..room as u32).filter(move |k| (k + i) % 3 != 0);
    let mut expected = vec![7, 8];
    let mut expected_starts = Vec::new();
    for item in &items {
        expected_starts.push(expected.len());
        expected.extend(pushed(item).map(|k| item.0 * 1000 + k));
    }
    for count in 1..=3 {
        let workers = Workers::new(count).unwrap();
        let mut out = vec![7, 8];
        let starts = workers.install(|| {
            extend_in_pieces(
                &mut out,
                &mut items,
                |item| item.1,
                |_, item, piece| {
                    for k in pushed(item) {
                        piece.push(item.0 * 1000 + k);
                    }
                },
            )
        });
        assert_eq!(out, expected, "{count} workers");
        assert_eq!(starts, expected_starts, "{count} workers");
    }
}

#[test]
fn run_with_runs_here_on_the_caller_and_every_task() {
    let workers = Workers::new(2).unwrap();
    let caller = std::thread::current().id();
    let ran = AtomicUsize::new(0);
    let here = workers.install(|| {
        run_with(7, &|_| _ = ran.fetch_add(1, Ordering::Relaxed), || {
            std::thread::current().id()
        })
    });
    assert_eq!(here, caller);
    assert_eq!(ran.load(Ordering::Relaxed), 7);
}

#[test]
fn a_task_panic_reaches_the_caller_after_every_task_has_run() {
    let workers = Workers::new(2).unwrap();
    let ran = AtomicUsize::new(0);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        workers.install(|| {
            for_each(64, |i| {
                ran.fetch_add(1, Ordering::Relaxed);
                assert!(i != 17, "task 17 fails");
            })
        })
    }));
    let message = outcome.unwrap_err();
    assert_eq!(message.downcast_ref::<&str>(), Some(&"task 17 fails"));
    assert_eq!(ran.load(Ordering::Relaxed), 64);
    // The workers are still usable.
    assert_eq!(workers.install(|| map(3, |i| i + 1)), [1, 2, 3]);
}

#[test]
fn a_panic_on_the_caller_side_of_a_join_waits_for_the_other_side() {
    let workers = Workers::new(2).unwrap();
    let other_done = AtomicBool::new(false);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        workers.install(|| {
            join(
                || panic!("left side fails"),
                || {
                    std::thread::sleep(Duration::from_millis(20));
                    other_done.store(true, Ordering::Release);
                },
            )
        })
    }));
    assert!(outcome.is_err());
    assert!(
        other_done.load(Ordering::Acquire),
        "the panic left before the join's other side"
    );
}

#[test]
fn install_restores_the_previous_workers() {
    let outer = Workers::new(3).unwrap();
    let inner = Workers::new(2).unwrap();
    let counts = outer.install(|| {
        let inside = inner.install(current_count);
        (inside, current_count())
    });
    assert_eq!(counts, (2, 3));
}
