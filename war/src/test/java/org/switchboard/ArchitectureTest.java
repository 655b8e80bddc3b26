package org.switchboard;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.core.domain.properties.CanBeAnnotated.Predicates.annotatedWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.persistence.Entity;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.annotation.WebServlet;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ext.Provider;
import org.switchboard.synapse.VerbHandler;

/**
 * The import rules of the code base (issue 15, architecture.md §3): packages never form a cycle;
 * transport (JAX-RS resources and providers, the WebSocket endpoint, servlets and filters, SYNAPSE
 * verb handlers) → services → domain and persistence, never back; SYNAPSE and REDSYN meet only in
 * the named shared packages. A new import that breaks one fails the build with the offending lines.
 */
@AnalyzeClasses(packages = "org.switchboard", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /** Shared by both protocols: what {@code synapse} and {@code redsyn} may both use. */
    private static final String[] SHARED = {"org.switchboard.crypto..", "org.switchboard.json..",
            "org.switchboard.journal..", "org.switchboard.logging..", "org.switchboard.messaging..",
            "org.switchboard.container..", "org.switchboard.lifecycle.."};

    /** Where transport classes and the wiring that builds them live. */
    private static final String[] TRANSPORT_PACKAGES = {"org.switchboard.redsyn.api..", "org.switchboard.synapse.hub..",
            "org.switchboard.ops.."};

    private static final DescribedPredicate<JavaClass> TRANSPORT = annotated(Path.class)
            .or(annotated(Provider.class)).or(annotated(ServerEndpoint.class))
            .or(annotated(WebServlet.class)).or(annotated(WebFilter.class))
            .as("transport classes (JAX-RS resources and providers, WebSocket endpoints, servlets, filters)");

    private static final DescribedPredicate<JavaClass> VERB_HANDLERS = assignableTo(VerbHandler.class)
            .and(not(JavaClass.Predicates.INTERFACES)).and(simpleNameEndingWith("Handler")).as("SYNAPSE verb handlers");

    private static final DescribedPredicate<JavaClass> BEANS = annotated(ApplicationScoped.class)
            .or(annotated(RequestScoped.class)).or(annotated(jakarta.ejb.Singleton.class))
            .or(annotated(jakarta.ejb.Stateless.class)).or(simpleNameEndingWith("Service"))
            .as("services (CDI or EJB beans, *Service)");

    private static DescribedPredicate<JavaClass> annotated(Class<? extends java.lang.annotation.Annotation> type) {
        return annotatedWith(type).forSubtype();
    }

    /** Every package is its own slice, so any loop between two packages (or more) fails. */
    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = slices().matching("org.switchboard.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule synapseUsesNoRedsyn = classes().that().resideInAPackage("org.switchboard.synapse..")
            .should().onlyDependOnClassesThat(resideOutsideOfPackage("org.switchboard..")
                    .or(resideInAnyPackage("org.switchboard.synapse..")).or(resideInAnyPackage(SHARED)))
            .because("SYNAPSE and REDSYN are independent except through the shared packages");

    @ArchTest
    static final ArchRule redsynUsesNoSynapse = classes().that().resideInAPackage("org.switchboard.redsyn..")
            .should().onlyDependOnClassesThat(resideOutsideOfPackage("org.switchboard..")
                    .or(resideInAnyPackage("org.switchboard.redsyn..")).or(resideInAnyPackage(SHARED)))
            .because("SYNAPSE and REDSYN are independent except through the shared packages");

    @ArchTest
    static final ArchRule sharedPackagesServeBothProtocols = noClasses().that().resideInAnyPackage(SHARED)
            .should().dependOnClassesThat().resideInAnyPackage("org.switchboard.synapse..", "org.switchboard.redsyn..",
                    "org.switchboard.ops..")
            .because("the shared packages sit below both protocols");

    @ArchTest
    static final ArchRule onlyTransportUsesTransport = noClasses().that().resideOutsideOfPackages(TRANSPORT_PACKAGES)
            .should().dependOnClassesThat(TRANSPORT)
            .because("transport calls services, never the other way");

    @ArchTest
    static final ArchRule servicesDoNotUseTheRedsynApiPackage = noClasses().that()
            .resideInAPackage("org.switchboard.redsyn..").and().resideOutsideOfPackage("org.switchboard.redsyn.api..")
            .should().dependOnClassesThat().resideInAPackage("org.switchboard.redsyn.api..")
            .because("redsyn.api is REDSYN's transport: services and domain sit below it");

    @ArchTest
    static final ArchRule onlyTheWiringUsesVerbHandlers = noClasses().that(not(VERB_HANDLERS))
            .and().resideOutsideOfPackage("org.switchboard.synapse.hub..")
            .should().dependOnClassesThat(VERB_HANDLERS)
            .because("verb handlers are SYNAPSE's transport side: the dispatcher calls them, services do not");

    @ArchTest
    static final ArchRule onlyOpsUsesTheSynapseWiring = noClasses().that().resideInAPackage("org.switchboard.synapse..")
            .and().resideOutsideOfPackage("org.switchboard.synapse.hub..")
            .should().dependOnClassesThat().resideInAPackage("org.switchboard.synapse.hub..")
            .because("synapse.hub builds every feature; features reach the running hub through SynapseContextSource");

    /** Opening private members is how code reaches into container internals: only the container seam may. */
    private static final DescribedPredicate<JavaCall<?>> OPENS_PRIVATE_MEMBERS = JavaCall.Predicates.target(
            HasName.Predicates.nameMatching("setAccessible|trySetAccessible|getDeclaredFields?|getDeclaredMethods?"))
            .and(JavaCall.Predicates.target(HasOwner.Predicates.With.owner(
                    assignableTo(java.lang.reflect.AccessibleObject.class).or(JavaClass.Predicates.equivalentTo(Class.class)))))
            .as("setAccessible, getDeclaredField or getDeclaredMethod");

    @ArchTest
    static final ArchRule onlyTheContainerSeamReachesIntoContainers = noClasses().that()
            .resideOutsideOfPackage("org.switchboard.container..")
            .should().callMethodWhere(OPENS_PRIVATE_MEMBERS)
            .because("container shortcuts live behind org.switchboard.container.ContainerShortcuts (issue 15)");

    @ArchTest
    static final ArchRule entitiesDependOnNoServiceOrTransport = noClasses().that().areAnnotatedWith(Entity.class)
            .should().dependOnClassesThat(BEANS.or(TRANSPORT).or(VERB_HANDLERS))
            .because("JPA entities are the persistence layer, below services");
}
