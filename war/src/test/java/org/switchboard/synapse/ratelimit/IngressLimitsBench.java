package org.switchboard.synapse.ratelimit;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.Charset;
import org.switchboard.synapse.session.FrameSizeLimit;

/**
 * Micro benchmark (not a test): thread CPU per frame of the ingress checks: one rate-limit charge
 * (a key within its rate), and measuring a frame against the size limit compared with what Tyrus's
 * own {@code maxMessageSize} check did (encode the whole text to bytes). Run:
 * {@code java -cp war/target/test-classes:war/target/classes org.switchboard.synapse.ratelimit.IngressLimitsBench}
 */
public final class IngressLimitsBench {

    private IngressLimitsBench() {
    }

    /** Prints thread CPU ns per operation for a few rounds. */
    public static void main(String[] args) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        int n = 2_000_000;
        KeyedRateLimiter limiter = new KeyedRateLimiter(1e12, 1, KeyedRateLimiter.DEFAULT_MAX_KEYS, System::nanoTime);
        String[] hosts = {"127.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"};
        FrameSizeLimit limit = FrameSizeLimit.ofKib(1024);
        String small = "{\"type\":\"chat\",\"target\":\"proj/bob\",\"payload\":\"" + "x".repeat(200) + "\",\"timestamp\":1.0}";
        String large = "{\"type\":\"chat\",\"payload\":\"" + "\u00e9".repeat(400_000) + "\"}"; // 800 KB: chars x 3 > 1 MiB, so counted exactly
        long sink = 0;
        for (int round = 0; round < 4; round++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += limiter.tryAcquire(hosts[i & 3]) ? 1 : 0;
            }
            long t1 = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += limit.tooBig(small) ? 1 : 0;
            }
            long t2 = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < n / 10; i++) {
                sink += small.getBytes(Charset.defaultCharset()).length;
            }
            long t3 = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < 200; i++) {
                sink += limit.tooBig(large) ? 1 : 0;
            }
            long t4 = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < 200; i++) {
                sink += large.getBytes(Charset.defaultCharset()).length;
            }
            long t5 = cpu.getCurrentThreadCpuTime();
            System.out.printf("round %d: rate charge %.1f ns; size check 260 B frame %.1f ns vs encode %.1f ns;"
                            + " 800 KB frame %.1f us vs encode %.1f us%n", round, (t1 - t0) / (double) n,
                    (t2 - t1) / (double) n, (t3 - t2) / (n / 10.0), (t4 - t3) / 200_000.0, (t5 - t4) / 200_000.0);
        }
        System.out.println("(sink " + sink + ", default charset " + Charset.defaultCharset() + ")");
    }
}
