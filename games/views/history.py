"""Replays and records. (stub)"""

from django.http import HttpResponse


def replay(request, public_id):
    return HttpResponse("not yet", status=501)


def record(request, public_id):
    return HttpResponse("not yet", status=501)


def upload(request):
    return HttpResponse("not yet", status=501)
