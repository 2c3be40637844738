"""The functions a task's model defines for the runtime driver, written once.

    model = tessel.Model()
    tessel.define_classifier(model, network, images, labels, classes)

    def evaluate(tokens, targets):          # a language model's evaluate
        return tessel.loss_and_correct(model, logits_of(tokens), targets, vocab)
"""


def loss_and_correct(model, logits, labels, classes):
    """What an `evaluate` function returns: the mean softmax cross-entropy
    of `logits` against the integer `labels` over the `classes` dim, and the
    number of predictions whose label's logit is the largest, one per
    element of `labels` (per example of a classifier, per position of a
    language model). The driver reports the mean loss, correct / predictions
    as the accuracy and, for a language model, exp(loss) as the
    perplexity."""
    import tessel

    loss = tessel.reduce_mean(tessel.cross_entropy(logits, labels, classes.name))
    best = tessel.compare("ge", logits, tessel.reduce_max(logits, classes.name))
    hits = tessel.where(best, tessel.one_hot(labels, classes), tessel.constant(model, 0.0))
    return {"loss": loss, "correct": tessel.reduce_sum(hits)}


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
        return loss_and_correct(model, logits_of(x), y, classes)

    model.define("forward", [images, labels], forward)
    model.define("evaluate", [images, labels], evaluate)
