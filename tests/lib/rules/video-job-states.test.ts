import { describe, expect, it } from "vitest";
import { videoJobState, type JobStatus, type JobView } from "~/lib/rules/video-job-states";

const job = (kind: JobView["kind"], status: JobStatus, more: Partial<JobView> = {}): JobView => ({
  kind,
  status,
  progress: 0,
  attempts: 0,
  detail: null,
  ...more,
});

/** A state's place on the way a file goes, for the admin: it may only stay or move right. */
const RANK: Record<JobStatus, number> = { waiting: 0, running: 1, done: 2, failed: 2 };
const percentIn = (words: string) => Number(/(\d+)%/.exec(words)?.[1] ?? NaN);

describe("a video's jobs in one state (lib/rules/video-job-states)", () => {
  it("a delivery file's badge never steps back while its poster and then its phone version are made", () => {
    // As the worker goes: every poster first, then the phone versions, which may wait for other files'.
    const steps: [JobView, JobView][] = [
      [job("poster", "waiting"), job("phone", "waiting")],
      [job("poster", "running", { attempts: 1 }), job("phone", "waiting")],
      [job("poster", "running", { attempts: 1, progress: 80 }), job("phone", "waiting")],
      [job("poster", "done", { attempts: 1, progress: 100 }), job("phone", "waiting")],
      [job("poster", "done", { attempts: 1, progress: 100 }), job("phone", "running", { attempts: 1 })],
      [
        job("poster", "done", { attempts: 1, progress: 100 }),
        job("phone", "running", { attempts: 1, progress: 37 }),
      ],
      [job("poster", "done", { attempts: 1, progress: 100 }), job("phone", "done", { attempts: 1 })],
    ];
    const states = steps.map((jobs) => videoJobState(jobs, null)!);
    expect(states.map((state) => state.words)).toEqual([
      "待機中",
      "処理中 0%・ポスター画像の作成（1/2）",
      "処理中 8%・ポスター画像の作成（1/2）",
      // The poster is made and the phone version waits its turn: still 処理中, never 待機中 again.
      "処理中 10%・スマホ用動画の作成待ち（2/2）",
      "処理中 10%・スマホ用動画の作成（2/2）",
      "処理中 43%・スマホ用動画の作成（2/2）",
      "完了",
    ]);
    states.slice(1).forEach((after, index) => {
      const before = states[index]!;
      expect(RANK[after.status]).toBeGreaterThanOrEqual(RANK[before.status]);
      if (before.status === "running" && after.status === "running")
        expect(percentIn(after.words)).toBeGreaterThanOrEqual(percentIn(before.words));
    });
    expect(states.map((state) => state.unfinished)).toEqual([true, true, true, true, true, true, false]);
  });

  it("a sample's one poster job: 処理中 with its step and no count, then 完了（ポスター画像）", () => {
    expect(videoJobState([job("poster", "running", { attempts: 1, progress: 50 })], null)?.words).toBe(
      "処理中 50%・ポスター画像の作成",
    );
    expect(videoJobState([job("poster", "done", { attempts: 1 })], null)?.words).toBe("完了（ポスター画像）");
  });

  it("a failure beside a job still waiting says 失敗, and the page keeps following the other", () => {
    expect(
      videoJobState(
        [job("poster", "waiting"), job("phone", "failed", { attempts: 4, detail: "止まりました" })],
        null,
      ),
    ).toEqual({ status: "failed", words: "失敗", reason: "スマホ用: 止まりました", unfinished: true });
  });

  it("a try that failed and waits for its retry stays 処理中 (it had begun), saying why beside it", () => {
    expect(
      videoJobState([job("poster", "waiting", { attempts: 1, detail: "読み取れませんでした" })], null),
    ).toEqual({
      status: "running",
      words: "処理中 0%・ポスター画像の作成待ち",
      reason: "前回の失敗: 読み取れませんでした（自動で再試行します）",
      unfinished: true,
    });
  });

  it("no jobs (a file from before videos were processed): nothing to say", () => {
    expect(videoJobState([], null)).toBeNull();
  });
});
