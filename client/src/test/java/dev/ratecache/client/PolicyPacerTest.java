package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading RateLimit-Policy values into the limits the pacer keeps to. */
class PolicyPacerTest {

    @Test
    void edgeItemWithItsBurstIsPacedOneShortOfTheBurst() {
        assertThat(PolicyPacer.parse("\"pro\";q=10;w=1;ratecache-burst=20"))
                .containsExactly(new PolicyPacer.Limit("pro", 10, 20));
    }

    @Test
    void burstOfZeroStillHoldsOneRequest() {
        assertThat(PolicyPacer.parse("\"anonymous\";q=1;w=1;ratecache-burst=0"))
                .containsExactly(new PolicyPacer.Limit("anonymous", 1, 1));
    }

    @Test
    void itemWithoutABurstHoldsItsWindowsQuotaAtTheQuotasRate() {
        assertThat(PolicyPacer.parse("\"hourly\";q=3600;w=3600"))
                .containsExactly(new PolicyPacer.Limit("hourly", 1, 3600));
    }

    @Test
    void everyItemOfAListIsKept() {
        assertThat(PolicyPacer.parse("\"free\";q=2;w=1;ratecache-burst=4, \"address-ceiling\";q=50;w=1;ratecache-burst=100"))
                .containsExactly(new PolicyPacer.Limit("free", 2, 4), new PolicyPacer.Limit("address-ceiling", 50, 100));
    }

    @Test
    void itemsThatCannotBePacedAreLeftOut() {
        assertThat(PolicyPacer.parse("\"a\";q=0;w=1, \"b\";w=1, \"c\";q=x;w=1, \"d\";q=5;w=0, garbage")).isEmpty();
        assertThat(PolicyPacer.parse("\"ok\";q=5;w=1, \"bad\";q=-1;w=1")).extracting(PolicyPacer.Limit::name).containsExactly("ok");
    }

    @Test
    void hostWithoutAPolicyIsNotPaced() throws Exception {
        PolicyPacer pacer = new PolicyPacer();
        pacer.learn("http://a", null);
        pacer.learn("http://a", "nonsense");

        for (int i = 0; i < 100; i++) {
            assertThat(pacer.acquire("http://a")).isZero();
        }
    }

    @Test
    void learnedPolicyMakesTheRequestBeyondItsBurstWait() throws Exception {
        PolicyPacer pacer = new PolicyPacer();
        pacer.learn("http://a", "\"slow\";q=1;w=1;ratecache-burst=3");

        // The response that brought the policy took one of three: two more go at once, the next waits.
        assertThat(List.of(pacer.acquire("http://a"), pacer.acquire("http://a"))).containsOnly(0L);
        assertThat(pacer.acquire("http://b")).isZero();
        assertThat(pacer.acquire("http://a")).isGreaterThan(500_000_000L);
    }
}
