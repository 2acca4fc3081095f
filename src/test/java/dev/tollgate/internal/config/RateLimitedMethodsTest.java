package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.RateKey;
import dev.tollgate.RateLimited;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitedMethodsTest {

    abstract static class Mailer {
        public void send(String to, @RateKey String tenant) {}

        @RateLimited("bulk")
        public void sendAll() {}
    }

    @RateLimited("free-tier")
    static class FreeMailer extends Mailer {}

    @RateLimited("paid-tier")
    static class PaidMailer extends Mailer {}

    static class Unlimited extends Mailer {}

    @Test
    void siblingsInheritingOneMethodEachGetTheirOwnTypesLimits() throws Exception {
        Method send = Mailer.class.getMethod("send", String.class, String.class);
        assertEquals(List.of("free-tier"), limitsOf(FreeMailer.class, send).limits());
        assertEquals(List.of("paid-tier"), limitsOf(PaidMailer.class, send).limits(), "not the first sibling's plan");
        assertEquals(List.of(), limitsOf(Unlimited.class, send).limits());
    }

    @Test
    void methodAnnotationReplacesTheTypes() throws Exception {
        assertEquals(
                List.of("bulk"),
                limitsOf(FreeMailer.class, Mailer.class.getMethod("sendAll")).limits());
    }

    @Test
    void rateKeyParameterIsFound() throws Exception {
        Method send = Mailer.class.getMethod("send", String.class, String.class);
        assertEquals(1, limitsOf(FreeMailer.class, send).keyParameter());
        assertEquals(
                -1,
                limitsOf(FreeMailer.class, Mailer.class.getMethod("sendAll")).keyParameter());
    }

    @Test
    void usagesNameTheTypeAndEachAnnotatedMethod() {
        assertEquals(
                List.of(FreeMailer.class.getName(), FreeMailer.class.getName() + "#sendAll"),
                List.copyOf(RateLimitedMethods.usages(FreeMailer.class).keySet()));
    }

    private static MethodLimits limitsOf(Class<?> bean, Method method) {
        return RateLimitedMethods.of(new BeanMethod(bean, method));
    }
}
