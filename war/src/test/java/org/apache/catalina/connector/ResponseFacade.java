package org.apache.catalina.connector;

/** Test stand-in with the shape of Payara's response facade: the container response in a private field. */
public class ResponseFacade {

    private final Object response;

    public ResponseFacade(Object response) {
        this.response = response;
    }
}
