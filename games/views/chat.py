"""Chat and reports. (stub)"""

from django.http import HttpResponse


def chat(request, public_id):
    return HttpResponse("not yet", status=501)


def report(request):
    return HttpResponse("not yet", status=501)
