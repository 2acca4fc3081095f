package dev.tollgate.cdi;

import dev.tollgate.ConcurrencyLimited;
import dev.tollgate.OncePerCluster;
import dev.tollgate.RateLimited;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.config.DeploymentCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.interceptor.Interceptor;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Validates Tollgate's configuration while the application deploys ({@link DeploymentCheck}): the
 * settings, the {@link RateLimited}, {@link ConcurrencyLimited} and {@link OncePerCluster} annotations of every bean, and the
 * {@code KeyResolver} beans the settings name. Every problem fails the deployment in one message naming
 * each property or annotated method. A reload of {@code tollgate.config.file} is checked by the same code
 * against the same beans ({@link #checkedBeans}). Adds the reporting adapters whose API the server shows
 * the application ({@link Reporting}), and only those.
 */
public class TollgateExtension implements Extension {

    private static final Logger LOG = Logger.getLogger(TollgateExtension.class.getName());

    private final Set<Class<?>> annotated = new LinkedHashSet<>();

    private volatile DeploymentCheck.Beans checked;

    void reporters(@Observes BeforeBeanDiscovery event) {
        ClassLoader loader = TollgateExtension.class.getClassLoader();
        List<Reporting> on = Reporting.visible(loader);
        for (Reporting r : on) {
            event.addAnnotatedType(r.adapterClass(loader), r.adapter()).add(ApplicationScoped.Literal.INSTANCE);
        }
        LOG.info(Reporting.described(on));
    }

    void collect(
            @Observes @WithAnnotations({RateLimited.class, ConcurrencyLimited.class, OncePerCluster.class})
                    ProcessAnnotatedType<?> event) {
        AnnotatedType<?> type = event.getAnnotatedType();
        if (!type.isAnnotationPresent(Interceptor.class)) {
            annotated.add(type.getJavaClass());
        }
    }

    void validate(@Observes AfterDeploymentValidation event, BeanManager beans) {
        checked = new DeploymentCheck.Beans(annotated, (name, type) -> beans.getBeans(name).stream()
                .anyMatch(b -> b.getTypes().contains(type)));
        List<String> problems =
                DeploymentCheck.problems(new MicroProfilePropertySource(ConfigProvider.getConfig()), checked);
        if (!problems.isEmpty()) {
            event.addDeploymentProblem(TollgateConfigException.of(problems));
        }
    }

    /** The beans the deployment was checked against: a reload of the limits is checked against them too. */
    public DeploymentCheck.Beans checkedBeans() {
        if (checked == null) {
            throw new IllegalStateException("the deployment has not been validated yet");
        }
        return checked;
    }
}
