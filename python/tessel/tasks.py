"""The functions a task's model defines for the runtime driver, written once.

    model = tessel.Model()
    tessel.define_classifier(model, network, images, labels, classes)
"""


def define_classifier(model, network, images, labels, classes):
    """Defines `forward` and `evaluate` of a classifier.

    `network(x)` maps the `images` input to logits over the `classes` dim
    (their op is named "logits", for layout overrides). `forward` returns
    the mean softmax cross-entropy against the integer `labels` input, and is
    traced for training (a BatchNorm uses the batch statistics there);
    `evaluate` returns that loss and the number of correct predictions (an
    example is correct when its label's logit is the largest), which the
    driver reports as the test accuracy, and is traced for evaluation (the
    running statistics). Both call the same layers, so evaluation runs on the
    trained weights."""
    import tessel

    def logits_of(x):
        logits = network(x)
        model.name(logits, "logits")
        return logits

    def forward(x, y):
        return tessel.reduce_mean(tessel.cross_entropy(logits_of(x), y, classes.name))

    def evaluate(x, y):
        logits = logits_of(x)
        loss = tessel.reduce_mean(tessel.cross_entropy(logits, y, classes.name))
        best = tessel.compare("ge", logits, tessel.reduce_max(logits, classes.name))
        hits = tessel.where(best, tessel.one_hot(y, classes), tessel.constant(model, 0.0))
        return {"loss": loss, "correct": tessel.reduce_sum(hits)}

    model.define("forward", [images, labels], forward)
    model.define("evaluate", [images, labels], evaluate)
